import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { printJson, terminalSafeStream, terminalSafeText, type CliIo } from './io.js';

const ESC = '\u001b';

describe('terminalSafeText', () => {
  it('removes CSI, OSC (incl. OSC 52 clipboard writes) and other escape sequences', () => {
    expect(terminalSafeText(`a${ESC}[31mred${ESC}[0m b`)).toBe('ared b');
    expect(terminalSafeText(`x${ESC}]52;c;ZXZpbA==\u0007y`)).toBe('xy');
    expect(terminalSafeText(`x${ESC}]0;title${ESC}\\y`)).toBe('xy');
    expect(terminalSafeText(`x${ESC}Pq#0;2;0;0;0${ESC}\\y`)).toBe('xy');
    expect(terminalSafeText(`x\u009b2Jy`)).toBe('xy');
    expect(terminalSafeText(`x\u009d52;c;AAAA\u009cy`)).toBe('xy');
    expect(terminalSafeText(`x${ESC}cy`)).toBe('xy');
  });

  it('keeps newlines and tabs, drops CR before LF, shows every other control as a picture', () => {
    expect(terminalSafeText('a\tb\r\nc\n')).toBe('a\tb\nc\n');
    expect(terminalSafeText('a\rb\u0008c\u0000d\u007f')).toBe('a\u240db\u2408c\u2400d\u2421');
    expect(terminalSafeText('bell\u0007 c1\u0085')).toBe('bell\u2407 c1\ufffd');
    expect(terminalSafeText('plain text, ünïcode ✓')).toBe('plain text, ünïcode ✓');
  });

  it('an unterminated OSC cannot swallow the rest of the line into a terminal command', () => {
    const out = terminalSafeText(`a${ESC}]52;c;AAAA`);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(terminalSafeText(`a${ESC}]0;title\nnext line\n`)).toBe('a\nnext line\n');
  });
});

describe('terminalSafeStream and printJson', () => {
  function capture(): { io: CliIo; text: () => string } {
    const raw = new PassThrough();
    const chunks: string[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    const io: CliIo = {
      stdout: terminalSafeStream(raw),
      stderr: new PassThrough(),
      env: {},
      cwd: '/',
      stderrIsTty: false,
    };
    return { io, text: () => chunks.join('') };
  }

  it('makes text writes safe and leaves JSON data intact but inert', async () => {
    const { io, text } = capture();
    io.stdout.write(`hit: ${ESC}]52;c;ZXZpbA==\u0007 done\n`);
    printJson(io, { text: `${ESC}[2J\u009b6n\u0085` });
    await new Promise((r) => setImmediate(r));
    const out = text();
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(out.split('\n')[0]).toBe('hit:  done');
    const json = JSON.parse(out.slice(out.indexOf('{'))) as { text: string };
    expect(json.text).toBe(`${ESC}[2J\u009b6n\u0085`);
  });
});
