// End-to-end tests for `strata map`: spawn the built CLI on a small multi-language tree in a temp folder.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../src/shared/tokenizer.js';
import { type CliResult, runCli } from './support/cli.js';

const TESTDATA = resolve(process.cwd(), 'src/core/codemap/testdata');
let root: string;
let home: string;

async function strata(args: string[]): Promise<CliResult> {
  return await runCli(args, { HOME: root, STRATA_HOME: home }, { cwd: join(root, 'proj') });
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'strata-map-cli-'));
  home = join(root, 'home');
  const proj = join(root, 'proj');
  mkdirSync(join(proj, 'src'), { recursive: true });
  mkdirSync(join(proj, 'node_modules/dep'), { recursive: true });
  for (const name of readdirSync(TESTDATA))
    copyFileSync(join(TESTDATA, name), join(proj, 'src', name.replace(/\.txt$/, '')));
  writeFileSync(join(proj, 'node_modules/dep/index.js'), 'export function hidden() {}\n');
  writeFileSync(join(proj, 'src/notes.toml'), 'title = "x"\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('strata map render', () => {
  it('fits the budget, reports cache use on stderr, and parses nothing on a re-run', async () => {
    const first = await strata(['map', 'render', 'src', '--budget', '300']);
    expect(first.code).toBe(0);
    expect(countTokens(first.stdout)).toBeLessThanOrEqual(300);
    expect(first.stdout).toMatch(/^# code map: \d+ of 9 files, budget 300 tokens\n/);
    expect(first.stderr).toMatch(/mapped 9 files \(8 parsed, 0 from cache\)/);
    const second = await strata(['map', 'render', 'src', '--budget', '300']);
    expect(second.stderr).toMatch(/mapped 9 files \(0 parsed, 8 from cache\)/);
    expect(second.stdout).toBe(first.stdout);
    expect(first.stdout).not.toContain('hidden');
  });

  it('gives the structured map with --json and honours --level', async () => {
    const r = await strata(['map', 'render', '.', '--budget', '50000', '--level', 'compact', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      level: string;
      omitted: number;
      tokens: number;
      files: { path: string; level: string; symbols: { name: string; startLine: number }[] }[];
      text: string;
    };
    expect(out.level).toBe('compact');
    expect(out.omitted).toBe(0);
    expect(out.files.map((f) => f.path)).not.toContain('node_modules/dep/index.js');
    const ts = out.files.find((f) => f.path === 'src/sample.ts')!;
    expect(ts.symbols.find((s) => s.name === 'login')?.startLine).toBe(17);
    expect(out.text).toContain('L17-20 async login(user: string, password: string): Promise<string>');
    expect(out.text).toContain('src/notes.toml:1-1 (12 B) [unsupported]');
    expect(countTokens(out.text)).toBe(out.tokens);
  });

  it('maps a folder named inside an ignored one, or the ignored folder itself, and says so', async () => {
    mkdirSync(join(root, 'proj', '.git'), { recursive: true });
    writeFileSync(join(root, 'proj', '.gitignore'), 'node_modules/\n');
    const named = await strata(['map', 'render', 'node_modules/dep', '--budget', '300']);
    expect(named.code).toBe(0);
    expect(named.stdout).toContain('function hidden');
    expect(named.stderr).toContain('strata: node_modules/dep: ignored by .gitignore, mapped because it was named\n');
    const whole = await strata(['map', 'render', 'node_modules', '--budget', '300']);
    expect(whole.stderr).toContain('strata: node_modules: ignored by .gitignore, mapped because it was named\n');
    expect(whole.stdout).toContain('function hidden');
    rmSync(join(root, 'proj', '.git'), { recursive: true });
    rmSync(join(root, 'proj', '.gitignore'));
  });

  it('rejects an unknown level as a usage error', async () => {
    const r = await strata(['map', 'render', '--level', 'huge']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--level must be one of outline, minimal, compact, standard, full');
  });
});

describe('strata map chunk / search / view', () => {
  it('chunks a folder into files matching the manifest, then searches it', async () => {
    const out = join(root, 'chunks');
    const r = await strata(['map', 'chunk', 'src', '--max-chars', '300', '--out', out, '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { manifest: string; chunks: number };
    expect(summary.manifest).toBe(join(out, 'manifest.json'));
    const manifest = JSON.parse(readFileSync(summary.manifest, 'utf8')) as {
      chunks: {
        id: string;
        file: string;
        path: string;
        start_line: number;
        end_line: number;
        symbols: { name: string }[];
      }[];
    };
    expect(manifest.chunks).toHaveLength(summary.chunks);
    for (const c of manifest.chunks) {
      const lines = readFileSync(join(root, 'proj', c.file), 'utf8').split('\n');
      expect(readFileSync(join(out, c.path), 'utf8')).toBe(lines.slice(c.start_line - 1, c.end_line).join('\n') + '\n');
    }

    const search = await strata(['map', 'search', 'kind:class', '--manifest', summary.manifest, '--json']);
    expect(search.code).toBe(0);
    const hits = JSON.parse(search.stdout) as {
      hits: { file: string; path: string; symbols: { name: string; kind: string }[] }[];
    };
    const names = hits.hits.flatMap((h) => h.symbols.map((s) => s.name));
    expect(names).toEqual(expect.arrayContaining(['AuthService', 'Repo', 'UserRepo', 'Shape']));
    expect(hits.hits.every((h) => existsSync(h.path))).toBe(true);

    // Without --manifest, search uses the manifest the last chunk run wrote.
    const text = await strata(['map', 'search', 'login']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/chunk_\d+\s+src\/sample\.ts:\d+-\d+\s+method AuthService\.login:17/);
  });

  it('views named symbols at a level, and fails with one line for unknown names', async () => {
    const compact = await strata(['map', 'view', 'AuthService.login', 'NewStore', 'src']);
    expect(compact.code).toBe(0);
    expect(compact.stdout).toBe(
      'src/sample.ts:17-20 method AuthService.login (exported)\n  async login(user: string, password: string): ' +
        'Promise<string>\n' +
        'src/sample.go:21-23 function NewStore (exported)\n  func NewStore() *Store\n',
    );
    const full = await strata(['map', 'view', 'Point.new', '--level', 'full', '--path', 'src']);
    expect(full.stdout).toMatch(/^src\/sample\.rs:20-22 method Point\.new \(exported\)\n\/\/ Makes a point\.\n/);
    expect(full.stdout).toContain('pub fn new(x: T, y: T) -> Self {\n        Point { x, y }\n    }');
    const missing = await strata(['map', 'view', 'NoSuchSymbol', 'src']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('no symbol named NoSuchSymbol');
  });

  it('documents examples in --help', async () => {
    for (const sub of ['render', 'search']) {
      const r = await strata(['map', sub, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Examples:');
    }
  });
});
