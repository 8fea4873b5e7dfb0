// Puffin prompt shapes other versions write (jdubray/puffin src/main/plugins/services/history-service.js reads
// `prompt.content || ''`): prompts with no content but a response, and content given as text parts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePuffinFile } from './parser.js';
import { checkPrompt } from './schema.js';

const tmp = mkdtempSync(join(tmpdir(), 'strata-puffin-variants-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('puffin: lenient prompt content', () => {
  it('keeps a prompt whose content is missing or null, with its response', () => {
    for (const content of [undefined, null]) {
      const check = checkPrompt({ id: 'p1', parentId: null, content, response: { content: 'the answer' } });
      expect(check.ok && check.prompt.content).toBe('');
      expect(check.ok && check.prompt.response).toMatchObject({ content: 'the answer' });
    }
  });

  it('reads prompt and response content given as text parts or a text object', () => {
    const check = checkPrompt({
      id: 'p2',
      parentId: null,
      content: [{ type: 'text', text: 'part one' }, 'part two', { type: 'image', source: {} }],
      response: { content: { text: 'reply text' } },
    });
    expect(check.ok && check.prompt.content).toBe('part one\npart two');
    expect(check.ok && check.prompt.response).toMatchObject({ content: 'reply text' });
  });

  it('still rejects a prompt with neither content nor response, and content with no text', () => {
    expect(checkPrompt({ id: 'p4', parentId: null })).toEqual({
      ok: false,
      reason: 'prompt p4 without string content',
    });
    expect(checkPrompt({ id: 'p3', parentId: null, content: 42 })).toEqual({
      ok: false,
      reason: 'prompt p3 without string content',
    });
  });
});

describe('puffin: a response without its prompt text', () => {
  it('stores the response alone, with no empty prompt message (streamed or not)', async () => {
    const file = join(tmp, 'history.json');
    const prompts = [{ id: 'p1', parentId: null, timestamp: 1, response: { content: 'only the reply' } }];
    writeFileSync(file, JSON.stringify({ branches: { b: { id: 'b', name: 'B', prompts } } }, null, 2));
    for (const options of [{}, { streamThresholdBytes: 0 }]) {
      const out = await parsePuffinFile(file, options);
      expect(out.messages.map((m) => [m.role, m.blocks.map((b) => b.text)])).toEqual([
        ['assistant', ['only the reply']],
      ]);
    }
  });
});
