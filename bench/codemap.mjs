// Benchmark for code maps: map a generated 1,000-file source tree (TS, JS, Python, Go, Rust, Java, C, Markdown)
// with a cold parse cache, then again with the cache warm; prints files/s, per-file latency p50/p95, peak RSS.
// Usage: node bench/codemap.mjs [--files 1000] [--seed 42]   (run `npm run build` first)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCodeMapper, walkFiles, renderWithinBudget } from '../dist/core/codemap/index.js';
import { readFileSync } from 'node:fs';
import { prng } from './corpus.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? dflt : Number(args[i + 1]);
};
const FILES = opt('files', 1000);
const SEED = opt('seed', 42);

const rand = prng(SEED);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const words = [
  'user',
  'order',
  'payment',
  'session',
  'cache',
  'store',
  'index',
  'token',
  'query',
  'parser',
  'buffer',
  'event',
];
const ident = () => pick(words) + pick(words).replace(/^./, (c) => c.toUpperCase()) + Math.floor(rand() * 1000);

const generators = {
  ts: () => {
    const out = ["import { readFileSync } from 'node:fs';", "import type { Options } from './options.js';", ''];
    for (let c = 0; c < 3 + Math.floor(rand() * 4); c++) {
      const cls = ident().replace(/^./, (x) => x.toUpperCase());
      out.push(
        `/** ${cls} keeps ${pick(words)} state. */`,
        `export class ${cls}<T extends object> {`,
        `  private items = new Map<string, T>();`,
      );
      for (let m = 0; m < 4 + Math.floor(rand() * 6); m++) {
        out.push(`  /** Handles ${pick(words)}. */`, `  async ${ident()}(key: string, value: T): Promise<number> {`);
        for (let l = 0; l < 3 + Math.floor(rand() * 8); l++)
          out.push(`    const v${l} = this.items.get(key) ?? value; // ${pick(words)}`);
        out.push('    return this.items.size;', '  }');
      }
      out.push('}', '');
    }
    out.push(`export function ${ident()}(opts: Options): string {`, '  return JSON.stringify(opts);', '}');
    return out.join('\n') + '\n';
  },
  js: () => {
    const out = ["const path = require('node:path');", ''];
    for (let f = 0; f < 8 + Math.floor(rand() * 10); f++) {
      out.push(`function ${ident()}(a, b) {`, `  return path.join(String(a), String(b));`, '}', '');
    }
    out.push('module.exports = {};');
    return out.join('\n') + '\n';
  },
  py: () => {
    const out = ['import os', 'from typing import Optional', ''];
    for (let c = 0; c < 2 + Math.floor(rand() * 3); c++) {
      out.push(
        '@dataclass',
        `class ${ident().replace(/^./, (x) => x.toUpperCase())}:`,
        `    """Keeps ${pick(words)}."""`,
        '',
      );
      for (let m = 0; m < 4 + Math.floor(rand() * 5); m++) {
        out.push(`    def ${ident()}(self, key: str) -> Optional[int]:`, `        """Returns ${pick(words)}."""`);
        for (let l = 0; l < 2 + Math.floor(rand() * 6); l++)
          out.push(`        x${l} = os.path.join(key, "${pick(words)}")`);
        out.push('        return None', '');
      }
    }
    return out.join('\n') + '\n';
  },
  go: () => {
    const out = ['package store', '', 'import (', '\t"fmt"', ')', ''];
    const t = ident().replace(/^./, (x) => x.toUpperCase());
    out.push(`// ${t} keeps things.`, `type ${t} struct {`, '\titems map[string]int', '}', '');
    for (let m = 0; m < 6 + Math.floor(rand() * 8); m++) {
      out.push(
        `// Get${m} returns an item.`,
        `func (s *${t}) Get${m}(key string) (int, bool) {`,
        '\tv, ok := s.items[key]',
        '\tfmt.Println(v)',
        '\treturn v, ok',
        '}',
        '',
      );
    }
    return out.join('\n') + '\n';
  },
  rs: () => {
    const out = ['use std::collections::HashMap;', ''];
    const t = ident().replace(/^./, (x) => x.toUpperCase());
    out.push(
      '/// A store.',
      '#[derive(Debug, Default)]',
      `pub struct ${t} {`,
      '    items: HashMap<String, u32>,',
      '}',
      '',
      `impl ${t} {`,
    );
    for (let m = 0; m < 6 + Math.floor(rand() * 8); m++) {
      out.push(
        `    /// Gets ${pick(words)}.`,
        `    pub fn ${ident().toLowerCase()}(&self, key: &str) -> Option<u32> {`,
        '        self.items.get(key).copied()',
        '    }',
        '',
      );
    }
    out.push('}');
    return out.join('\n') + '\n';
  },
  java: () => {
    const t = ident().replace(/^./, (x) => x.toUpperCase());
    const out = [
      'package com.example;',
      '',
      'import java.util.Map;',
      '',
      '/** A repository. */',
      `public class ${t} {`,
    ];
    for (let m = 0; m < 6 + Math.floor(rand() * 8); m++) {
      out.push(
        '    /** Finds one. */',
        '    @Override',
        `    public int ${ident()}(String id) {`,
        '        return id.length();',
        '    }',
        '',
      );
    }
    out.push('}');
    return out.join('\n') + '\n';
  },
  c: () => {
    const out = ['#include <stdio.h>', '#define MAX(a, b) ((a) > (b) ? (a) : (b))', ''];
    for (let f = 0; f < 6 + Math.floor(rand() * 8); f++)
      out.push(`/* Adds numbers. */`, `int ${ident()}(int a, int b) {`, '    return MAX(a, b);', '}', '');
    return out.join('\n') + '\n';
  },
  md: () => {
    const out = [`# ${pick(words)} guide`, ''];
    for (let s = 0; s < 4 + Math.floor(rand() * 6); s++)
      out.push(`## ${pick(words)} ${s}`, '', 'Some text about it.', '', '```bash', `run ${pick(words)}`, '```', '');
    return out.join('\n') + '\n';
  },
};
const mix = ['ts', 'ts', 'ts', 'js', 'py', 'py', 'go', 'rs', 'java', 'c', 'md'];

const root = mkdtempSync(join(tmpdir(), 'strata-bench-codemap-'));
const cachePath = join(root, 'codemap-cache.db');
const tree = join(root, 'tree');
let bytes = 0;
for (let i = 0; i < FILES; i++) {
  const ext = pick(mix);
  const dir = join(tree, `pkg${i % 25}`, `mod${i % 7}`);
  mkdirSync(dir, { recursive: true });
  const text = generators[ext]();
  bytes += text.length;
  writeFileSync(join(dir, `file${i}.${ext}`), text);
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function run(label) {
  const mapper = createCodeMapper({ cachePath });
  const files = walkFiles([tree]);
  const lat = [];
  const t0 = performance.now();
  for (const f of files) {
    const s = performance.now();
    await mapper.mapFile(f);
    lat.push(performance.now() - s);
  }
  const ms = performance.now() - t0;
  mapper.close();
  const { parses, cacheHits } = mapper.stats;
  console.log(
    `${label.padEnd(12)} ${files.length} files in ${ms.toFixed(0)} ms = ` +
      `${((files.length / ms) * 1000).toFixed(0)} files/s; ` +
      `per file p50 ${pct(lat, 50).toFixed(2)} ms, p95 ${pct(lat, 95).toFixed(2)} ms; parses ${parses}, cache hits ` +
      `${cacheHits}; ` +
      `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
  );
}

console.log(`corpus: ${FILES} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB, seed ${SEED} (${tree})`);
await run('cold cache');
await run('warm cache');

// Budgeted rendering over the whole tree (maps from the warm cache).
const mapper = createCodeMapper({ cachePath });
const maps = await mapper.mapPaths([tree]);
mapper.close();
for (const budget of [2000, 20000]) {
  const t = performance.now();
  const r = renderWithinBudget(maps, { budget }, { readSource: (m) => readFileSync(m.path, 'utf8') });
  console.log(
    `render --budget ${budget}: ${r.tokens} tokens, level ${r.level}, ${r.omitted} omitted, ` +
      `${(performance.now() - t).toFixed(0)} ms`,
  );
}
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
if (!process.env.KEEP) rmSync(root, { recursive: true, force: true });
