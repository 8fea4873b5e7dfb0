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

/** JSON with DEL and the C1 controls escaped too (JSON.stringify leaves them raw): same data, inert on a terminal. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(
    JSON.stringify(value, null, 2).replace(
      /[\u007f-\u009f]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ) + '\n',
  );
}

// Terminal escape sequences: CSI (ESC [ or 0x9B … final byte), OSC/DCS/SOS/PM/APC strings (ESC ] P X ^ _
// or their C1 forms … BEL or ST), and any other ESC + one character.
const ESCAPE_SEQUENCE = new RegExp(
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|/.source +
    /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c\n]*/.source +
    /(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0020-\u007e]?/.source,
  'g',
);
const OTHER_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text as it may reach a terminal: escape sequences removed, CR before LF dropped, every other control
 * character except LF and TAB shown as its Unicode control picture (or U+FFFD for C1), never executed.
 */
export function terminalSafeText(text: string): string {
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text)) return text;
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(/\r\n/g, '\n')
    .replace(OTHER_CONTROL, (c) => {
      const code = c.charCodeAt(0);
      return code < 0x20 ? String.fromCharCode(0x2400 + code) : code === 0x7f ? '\u2421' : '\ufffd';
    });
}

/**
 * The stream with string writes passed through terminalSafeText: the one place text output is made safe.
 * JSON output needs nothing more (printJson escapes every control character), so it passes unchanged.
 */
export function terminalSafeStream(out: Writable): Writable {
  const write = (chunk: unknown, ...rest: unknown[]): boolean =>
    (out.write as (...args: unknown[]) => boolean)(
      typeof chunk === 'string' ? terminalSafeText(chunk) : chunk,
      ...rest,
    );
  return new Proxy(out, {
    get(target, prop) {
      if (prop === 'write') return write;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
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
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - [...cell].length)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
