// Owns the CLI's view of the terminal: stdout for data, stderr for people, TTY-aware progress.
import type { Writable } from 'node:stream';

export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  env: Record<string, string | undefined>;
  cwd: string;
  /** True when stderr is an interactive terminal (progress bars only then). */
  stderrIsTty: boolean;
}

export function defaultIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    stderrIsTty: Boolean(process.stderr.isTTY) && !process.env.CI,
  };
}

export function printLine(out: Writable, line = ''): void {
  out.write(line + '\n');
}

export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export interface Progress {
  update(done: number, total: number, label?: string): void;
  done(): void;
}

/** A one-line progress bar on stderr, only when stderr is a TTY and output is not JSON. */
export function createProgress(io: CliIo, enabled: boolean): Progress {
  if (!enabled || !io.stderrIsTty) return { update() {}, done() {} };
  let last = 0;
  let drawn = false;
  return {
    update(done, total, label = '') {
      const now = Date.now();
      if (now - last < 80 && done < total) return;
      last = now;
      const width = 24;
      const ratio = total > 0 ? Math.min(1, done / total) : 0;
      const filled = Math.round(ratio * width);
      const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
      const text = `${bar} ${done}/${total} ${label}`.slice(0, (process.stderr.columns || 100) - 1);
      io.stderr.write(`\r\x1b[2K${text}`);
      drawn = true;
    },
    done() {
      if (drawn) io.stderr.write('\r\x1b[2K');
    },
  };
}

/** Pads cells into aligned columns; the last column is not padded. */
export function formatTable(rows: string[][], header?: string[]): string {
  const all = header ? [header, ...rows] : rows;
  const widths: number[] = [];
  for (const row of all) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return all
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - [...cell].length))).join('  ').trimEnd())
    .join('\n');
}
