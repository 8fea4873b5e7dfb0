// The seam: the options alone choose the inline or the threaded source (the threads' modules run from
// dist/: build first), and both deliver the same prepared batches and the same end for a job.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeCodeAdapter } from '../../../sources/claude-code/index.js';
import { openLineBatches, type LineBatch, type LineJob, type PipelineOptions } from './index.js';
import { threadsAvailable } from './threaded.js';

const SECRET = 'sk-ant-api03-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbNm';

function jobFile(): LineJob {
  const dir = mkdtempSync(join(tmpdir(), 'strata-seam-'));
  const path = join(dir, 'session.jsonl');
  const line = (n: number) =>
    JSON.stringify({
      type: 'user',
      sessionId: 'seam',
      uuid: `u-${n}`,
      timestamp: '2025-06-01T10:00:00.000Z',
      cwd: '/w',
      message: { role: 'user', content: `line ${n} key ${SECRET}` },
    });
  const text = `${[1, 2, 3].map(line).join('\n')}\n{"type":"user","sessi`;
  writeFileSync(path, text);
  return { id: 0, path, agent: 'claude-code', offset: 0, startLine: 0, size: Buffer.byteLength(text) };
}

/** What a batch stores, whatever the thread packed its texts as. */
function stored(batch: LineBatch) {
  const decode = (t: unknown) => (t instanceof Uint8Array ? Buffer.from(t).toString('utf8') : t);
  return batch.output.messages.map((m) => ({ key: m.key, texts: m.blocks.map((b) => decode(b.text)) }));
}

async function read(
  options: PipelineOptions,
  bytes: number,
): Promise<{ threaded: boolean; batches: unknown[]; end: unknown; redactions: number }> {
  const job = jobFile();
  const source = openLineBatches([job], bytes, options);
  try {
    const batches: unknown[] = [];
    let redactions = 0;
    const { job: _id, ...end } = source.read(claudeCodeAdapter, job, (batch) => {
      batches.push(stored(batch));
      redactions += batch.redactions;
    });
    return { threaded: source.threaded, batches, end: { ...end, prefixHash: typeof end.prefixHash }, redactions };
  } finally {
    await source.close();
  }
}

describe('line batch source', () => {
  it('is chosen by the options, and gives the same batches inline and threaded', async () => {
    expect(threadsAvailable(), 'the thread modules are built by npm run build').toBe(true);
    const base = { prefetch: 'off', redact: true } as const;
    const inline = await read({ ...base, mode: 'inline' }, 1 << 30);
    const small = await read({ ...base, mode: 'auto' }, 1024);
    const threaded = await read({ ...base, mode: 'threaded' }, 1024);
    expect([inline.threaded, small.threaded, threaded.threaded]).toEqual([false, false, true]);
    expect(inline.batches).toHaveLength(1);
    expect(JSON.stringify(inline.batches)).not.toContain(SECRET);
    expect(inline.redactions).toBe(3);
    expect(threaded).toEqual({ ...inline, threaded: true });
    expect(small).toEqual(inline);
  });
});
