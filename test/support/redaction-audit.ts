// Runs the redactor over every text of the real fixtures (every string of every JSON record, every
// other file whole) and lists what it redacted: kind and 40 characters each side, the value masked.
// `STRATA_REDACTION_AUDIT=1 npx vite-node test/support/redaction-audit.ts` prints the list and the redactor's speed
// (ms per MB).
import { readdirSync, readFileSync, lstatSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findSecrets } from '../../src/shared/redact/index.js';

export const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/real', import.meta.url));

export interface AuditText {
  file: string;
  text: string;
}

function stringsOf(value: unknown, out: string[], depth = 0): void {
  if (typeof value === 'string') out.push(value);
  else if (depth < 200 && Array.isArray(value)) for (const v of value) stringsOf(v, out, depth + 1);
  else if (depth < 200 && value && typeof value === 'object') {
    for (const v of Object.values(value)) stringsOf(v, out, depth + 1);
    // A tool input is stored as its JSON text: keys and values side by side.
    const input = (value as Record<string, unknown>).input;
    if (input && typeof input === 'object') out.push(JSON.stringify(input));
  }
}

function textsOfFile(path: string): string[] {
  const raw = readFileSync(path, 'utf8');
  const out: string[] = [];
  if (path.endsWith('.jsonl')) {
    for (const line of raw.split('\n')) {
      if (!line.trim()) continue;
      try {
        stringsOf(JSON.parse(line), out);
      } catch {
        out.push(line);
      }
    }
  } else if (path.endsWith('.json')) {
    try {
      stringsOf(JSON.parse(raw), out);
    } catch {
      out.push(raw);
    }
  } else out.push(raw);
  return out;
}

export function fixtureTexts(root = FIXTURES): AuditText[] {
  const texts: AuditText[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const stat = lstatSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile() && name !== 'SOURCES.tsv')
        for (const text of textsOfFile(path)) texts.push({ file: relative(root, path), text });
    }
  };
  walk(root);
  return texts;
}

export interface AuditLine {
  file: string;
  kind: string;
  /** 40 characters each side, the secret shown as `[kind]`, newlines as spaces. */
  context: string;
}

export function auditRedactions(texts: AuditText[]): AuditLine[] {
  const lines: AuditLine[] = [];
  for (const { file, text } of texts) {
    const findings = findSecrets(text);
    for (const f of findings) {
      const from = Math.max(0, f.start - 40);
      const to = Math.min(text.length, f.end + 40);
      // Every secret in the window is masked, not only the one listed.
      let context = '';
      let at = from;
      for (const g of findings) {
        if (g.end <= from || g.start >= to) continue;
        context += text.slice(at, Math.max(at, g.start)) + `«${g.kind}:${g.end - g.start}»`;
        at = Math.min(to, g.end);
      }
      context += text.slice(at, to);
      lines.push({ file, kind: f.kind, context: context.replace(/\s+/g, ' ') });
    }
  }
  return lines;
}

if (process.env.STRATA_REDACTION_AUDIT === '1') {
  const texts = fixtureTexts();
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t.text), 0);
  const lines = auditRedactions(texts);
  for (const l of lines) console.log(`${l.kind}\t${l.file}\t${l.context}`);
  // CPU time, not wall time: on a shared machine the wall clock measures the neighbours.
  const cpuMs = (): number => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  const runs: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = cpuMs();
    for (const { text } of texts) findSecrets(text);
    runs.push(cpuMs() - t0);
  }
  const best = Math.min(...runs);
  console.error(
    `${texts.length} texts, ${(bytes / 1e6).toFixed(1)} MB, ${lines.length} redactions; redactor ` +
      `${best.toFixed(0)} ms CPU (best of 7) = ${(best / (bytes / 1e6)).toFixed(1)} ms/MB`,
  );
}
