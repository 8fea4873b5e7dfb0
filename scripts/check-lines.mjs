// Fails when a source line passes 120 characters (the formatter wraps code but not comments, strings or
// template literals, so this keeps those to the same width) or a source file reaches 400 lines.
// Usage: node scripts/check-lines.mjs
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const MAX = 120;
const MAX_LINES = 400;
const ROOT = join(import.meta.dirname, '..');
const FOLDERS = ['src', 'test', 'bench', 'scripts'];
const SOURCE = /\.(?:ts|mts|cts|js|mjs|cjs)$/;
const SKIP = new Set(['node_modules', 'dist', 'testdata', '__snapshots__', 'golden']);

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.isFile() && SOURCE.test(entry.name)) yield path;
  }
}

let long = 0;
let big = 0;
for (const folder of FOLDERS) {
  for (const file of sourceFiles(join(ROOT, folder))) {
    const lines = readFileSync(file, 'utf8').split('\n');
    const count = lines.at(-1) === '' ? lines.length - 1 : lines.length;
    if (count >= MAX_LINES) {
      big++;
      console.error(`${relative(ROOT, file)}: ${count} lines (fewer than ${MAX_LINES})`);
    }
    lines.forEach((line, i) => {
      // Characters, not UTF-16 units: `…` or `→` count once, as an editor shows them.
      const width = [...line].length;
      if (width > MAX) {
        long++;
        console.error(`${relative(ROOT, file)}:${i + 1}: ${width} characters (at most ${MAX})`);
      }
    });
  }
}
if (long > 0) console.error(`${long} line(s) longer than ${MAX} characters`);
if (big > 0) console.error(`${big} file(s) of ${MAX_LINES} lines or more`);
if (long > 0 || big > 0) process.exit(1);
