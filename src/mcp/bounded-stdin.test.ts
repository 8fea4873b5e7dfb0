import { describe, expect, it } from 'vitest';
import { BoundedLines } from './bounded-stdin.js';

async function through(input: Buffer[], max: number): Promise<{ passed: string; replies: string[] }> {
  const replies: string[] = [];
  const lines = new BoundedLines((line) => replies.push(line), max);
  const out: Buffer[] = [];
  lines.on('data', (d: Buffer) => out.push(d));
  const done = new Promise((resolve) => lines.on('end', resolve));
  for (const chunk of input) lines.write(chunk);
  lines.end();
  await done;
  return { passed: Buffer.concat(out).toString(), replies };
}

describe('BoundedLines', () => {
  it('passes lines under the bound whole, across chunks, and a last line without its newline', async () => {
    const r = await through([Buffer.from('{"a":1}\n{"b"'), Buffer.from(':2}\n{"c":3}')], 100);
    expect(r).toEqual({ passed: '{"a":1}\n{"b":2}\n{"c":3}', replies: [] });
  });

  it('drops a longer line and answers it with its id, first or last in the request, or null', async () => {
    const pad = 'x'.repeat(300);
    const r = await through(
      [
        Buffer.from(`{"method":"tools/call","params":{"q":"${pad}"},"jsonrpc":"2.0","id":7}\n{"ok":1}\n`),
        Buffer.from(`{"jsonrpc":"2.0","id":"r-1","params":{"q":"${pad}`),
        Buffer.from(`"}}\n{"params":"${pad}"}\n`),
      ],
      100,
    );
    expect(r.passed).toBe('{"ok":1}\n');
    expect(r.replies.map((line) => JSON.parse(line).id)).toEqual([7, 'r-1', null]);
    expect(JSON.parse(r.replies[0]!).error).toEqual({
      code: -32600,
      message: 'strata: request of 365 bytes refused (at most 100)',
    });
  });
});
