// A central file with many exports shows its main exports (the names other files use) before less
// central files get their paths, at small budgets too: on a generated repository parsed by tree-sitter.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../shared/tokenizer.js';
import { createCodeMapper } from './code-mapper.js';
import { isPeripheral } from './rank-files.js';
import { renderWithinBudget } from './render-budget.js';
import type { FileMap } from './types.js';

const root = join(tmpdir(), `strata-key-symbols-${process.pid}`);
let maps: FileMap[] = [];
const readSource = (m: FileMap): string => readFileSync(join(root, m.path), 'utf8');

/** The block of `path` in a rendered map: its first line up to the next file's. */
function blockOf(text: string, path: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`${path} `) || line.startsWith(`${path}:`));
  if (start < 0) return '';
  const end = lines.findIndex((line, i) => i > start && line !== '' && !line.startsWith(' '));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

beforeAll(async () => {
  const files: Record<string, string> = {};
  const helpers = Array.from({ length: 90 }, (_, i) => `export function helper${i}(): number {\n  return ${i};\n}`);
  files['src/schemas.ts'] = [
    'export class ZodType {\n  parse(input: unknown): unknown {\n    return input;\n  }\n}',
    'export interface ZodObject {\n  shape: Record<string, ZodType>;\n}',
    'export class ZodString extends ZodType {}',
    ...helpers,
  ].join('\n');
  for (let k = 0; k < 14; k++) {
    files[`src/feature${k}.ts`] =
      "import { ZodType, type ZodObject, ZodString } from './schemas.js';\n" +
      `export function feature${k}(a: ZodType, b: ZodObject): unknown[] {\n  return [a, b, new ZodString()];\n}\n`;
    files[`src/tests/feature${k}.test.ts`] =
      `import { feature${k} } from '../feature${k}.js';\nfeature${k}(undefined as never, undefined as never);\n`;
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const mapper = createCodeMapper({ cache: null });
  maps = await mapper.mapPaths(['src'], root);
  mapper.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('main exports of a central file', () => {
  it('lists the names other files use before less central files show, at 300 to 2,000 tokens', () => {
    expect(maps).toHaveLength(29);
    for (const budget of [300, 600, 1000, 2000]) {
      const r = renderWithinBudget(maps, { budget }, { readSource, countTokens });
      expect(countTokens(r.text)).toBeLessThanOrEqual(budget);
      expect(r.files[0]!.path, `budget ${budget}`).toBe('src/schemas.ts');
      const block = blockOf(r.text, 'src/schemas.ts');
      for (const name of ['class ZodType', 'interface ZodObject', 'class ZodString'])
        expect(block, `budget ${budget}`).toMatch(new RegExp(`\\b${name}\\b`));
      expect(block.split('\n')[1], `budget ${budget}`).toMatch(/ZodType|ZodObject|ZodString/);
      // No test file is shown while the central file lacks its main exports (checked above).
      expect(r.files.filter((f) => isPeripheral(f.path)).length, `budget ${budget}`).toBe(0);
    }
  });

  it('says how many symbols a cut listing leaves out, and reports the cut in the result', () => {
    const r = renderWithinBudget(maps, { budget: 600 }, { readSource, countTokens });
    const central = r.files[0]!;
    expect(central).toMatchObject({ path: 'src/schemas.ts', level: 'minimal' });
    expect(central.keySymbols).toBeGreaterThanOrEqual(3);
    const more = maps.find((m) => m.path === 'src/schemas.ts')!.symbols.length - central.keySymbols!;
    expect(blockOf(r.text, 'src/schemas.ts')).toContain(`  [+${more} more symbols]`);
  });
});
