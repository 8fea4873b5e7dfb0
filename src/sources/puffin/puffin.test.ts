// Tests the Puffin adapter on the real fixtures (counts computed here from the raw JSON) and on
// synthetic histories: tree depth, orphans, timestamps, truncation, malformed prompts, streaming parity.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { puffinAdapter } from './index.js';
import { parsePuffinFile } from './parser.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/real/puffin');
const fixtureFiles = readdirSync(FIXTURES).flatMap((dir) =>
  readdirSync(join(FIXTURES, dir)).map((name) => join(FIXTURES, dir, name)),
);

interface RawPrompt {
  id: string;
  parentId: string | null;
  response: unknown;
}

function rawPrompts(path: string): RawPrompt[] {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { branches: Record<string, { prompts: RawPrompt[] }> };
  return Object.values(doc.branches).flatMap((b) => b.prompts);
}

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'strata-puffin-'));
}

function writeHistory(doc: unknown, dir = tmp()): string {
  mkdirSync(join(dir, '.puffin'), { recursive: true });
  const path = join(dir, '.puffin', 'history.json');
  writeFileSync(path, typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2));
  return path;
}

const prompt = (id: string, parentId: string | null, extra: Record<string, unknown> = {}) => ({
  id,
  parentId,
  content: `content of ${id}\nsecond line`,
  title: null,
  timestamp: 1774758210475,
  response: {
    content: `answer to ${id}`,
    cost: 0.5,
    turns: 3,
    duration: 1200,
    filesModified: [],
    timestamp: 1774758551493,
  },
  children: [],
  ...extra,
});

describe('puffin adapter on real fixtures', () => {
  it('finds both fixture files', () => {
    expect(fixtureFiles.map((f) => f.split('/').pop()).sort()).toEqual(['history.early.json', 'history.json']);
  });

  for (const file of fixtureFiles) {
    it(`parses ${file.split('/').slice(-2).join('/')} with the expected counts`, async () => {
      const prompts = rawPrompts(file);
      const ids = new Set(prompts.map((p) => p.id));
      const roots = prompts.filter((p) => p.parentId === null || !ids.has(p.parentId)).length;
      const responses = prompts.filter((p) => p.response !== null && p.response !== undefined).length;
      const out = await parsePuffinFile(file);
      expect(out.notSession).toBeUndefined();
      expect(out.malformed).toEqual([]);
      expect(out.sessions).toHaveLength(roots);
      expect(out.messages).toHaveLength(prompts.length + responses);
      expect(out.messages.filter((m) => m.kind === 'prompt')).toHaveLength(prompts.length);
      const toolCalls = out.messages.flatMap((m) => m.blocks).filter((b) => b.kind === 'tool_call');
      expect(toolCalls).toHaveLength(0);
      // depth = number of ancestors, computed from the raw parent links
      const parentOf = new Map(prompts.map((p) => [p.id, p.parentId]));
      for (const m of out.messages.filter((x) => x.kind === 'prompt')) {
        const id = String(m.meta?.promptId);
        let depth = 0;
        for (let p = parentOf.get(id); p && ids.has(p); p = parentOf.get(p)) depth++;
        expect(m.meta?.depth).toBe(depth);
      }
    });

    it(`gives the same output streamed and in memory for ${file.split('/').pop()}`, async () => {
      const inMemory = await parsePuffinFile(file);
      const streamed = await parsePuffinFile(file, { streamThresholdBytes: 0 });
      expect(streamed).toEqual(inMemory);
    });
  }

  it('keeps cost, turns, duration and filesModified (Windows paths as-is) on responses', async () => {
    const file = fixtureFiles.find((f) => f.endsWith('history.early.json'))!;
    const out = await parsePuffinFile(file);
    const r = out.messages.find((m) => m.key === 'bc19d0b3-9835-4a9e-abb5-cb0522feb9cb:r')!;
    expect(r.meta).toMatchObject({ cost: 0.6443564, turns: 6, durationMs: 338798, depth: 0 });
    const files = r.meta?.filesModified as Array<{ path: string; action: string }>;
    expect(files).toHaveLength(13);
    expect(files.at(-1)).toMatchObject({
      path: 'C:\\Users\\jjdub\\code\\cosa\\docs\\cosa_phase1_spec.md',
      action: 'write',
    });
    const child = out.messages.find((m) => m.key === '4e0ef151-4b01-4193-8c0c-0b1aa4f4abc1:p')!;
    expect(child.sessionKey).toBe('bc19d0b3-9835-4a9e-abb5-cb0522feb9cb');
    expect(child.meta?.depth).toBe(1);
    const session = out.sessions.find((s) => s.key === 'bc19d0b3-9835-4a9e-abb5-cb0522feb9cb')!;
    expect(session.meta).toMatchObject({ branchId: 'backend', branchName: 'Backend' });
  });
});

describe('puffin threads', () => {
  it(
    'groups a tree into one session, computes depth, handles null responses, missing children and ISO ' + 'times',
    async () => {
      const dir = tmp();
      const path = writeHistory(
        {
          branches: {
            main: {
              id: 'main',
              name: 'Main line',
              prompts: [
                prompt('r1', null, { title: 'Root title' }),
                prompt('c2', 'c1', { response: null }), // child listed before its parent
                prompt('c1', 'r1', { timestamp: '2026-02-01T10:00:00.000Z', children: undefined }),
                prompt('o1', 'missing-parent'),
              ],
            },
          },
          activeBranch: 'main',
        },
        dir,
      );
      const out = await parsePuffinFile(path);
      expect(out.sessions.map((s) => s.key).sort()).toEqual(['o1', 'r1']);
      const r1 = out.sessions.find((s) => s.key === 'r1')!;
      expect(r1).toMatchObject({
        title: 'Root title',
        project: dir,
        meta: { branchId: 'main', branchName: 'Main line' },
      });
      const o1 = out.sessions.find((s) => s.key === 'o1')!;
      expect(o1.title).toBe('content of o1');
      expect(o1.meta?.orphanOfPromptId).toBe('missing-parent');
      const byKey = new Map(out.messages.map((m) => [m.key, m]));
      expect(byKey.get('c1:p')).toMatchObject({
        sessionKey: 'r1',
        timestamp: '2026-02-01T10:00:00.000Z',
        meta: { depth: 1 },
      });
      expect(byKey.get('c2:p')).toMatchObject({ sessionKey: 'r1', meta: { depth: 2, parentId: 'c1' } });
      expect(byKey.has('c2:r')).toBe(false);
      expect(byKey.get('r1:p')?.timestamp).toBe('2026-03-29T04:23:30.475Z');
      expect(byKey.get('r1:r')).toMatchObject({
        role: 'assistant',
        kind: 'response',
        blocks: [{ kind: 'text', text: 'answer to r1' }],
      });
      expect(out.messages).toHaveLength(7);
    },
  );

  it('reports malformed prompts with their entry index and counts unknown shapes', async () => {
    const path = writeHistory({
      branches: {
        a: {
          id: 'a',
          name: 'A',
          prompts: [
            prompt('p1', null),
            'not a prompt',
            { content: 'no id' },
            { id: 'p3', parentId: null, content: 7 },
            prompt('p4', null, { response: 'oops' }),
          ],
        },
        broken: 42,
        b: { id: 'b', name: 'B' },
      },
      somethingNew: { whatever: true },
    });
    const out = await parsePuffinFile(path);
    expect(out.malformed.map((m) => m.line)).toEqual([2, 3, 4, 5]);
    expect(out.malformed[3]?.reason).toMatch(/response is not an object/);
    expect(out.skipped).toEqual({ 'branch:not_object': 1 });
    expect(out.sessions.map((s) => s.key)).toEqual(['p1', 'p4']);
    expect(out.messages.map((m) => m.key)).toEqual(['p1:p', 'p1:r', 'p4:p']);
    const streamed = await parsePuffinFile(path, { streamThresholdBytes: 0 });
    expect(streamed).toEqual(out);
  });

  it('keeps the prompts completed before a truncated tail and reports the byte offset', async () => {
    const doc = {
      branches: { main: { id: 'main', name: 'Main', prompts: ['a', 'b', 'c', 'd'].map((id) => prompt(id, null)) } },
    };
    const full = JSON.stringify(doc, null, 2);
    const cut = full.indexOf('"answer to c"'); // inside the third prompt
    const path = writeHistory(full.slice(0, cut));
    for (const threshold of [undefined, 0]) {
      const out = await parsePuffinFile(path, threshold === undefined ? {} : { streamThresholdBytes: threshold });
      expect(out.notSession).toBeUndefined();
      expect(out.sessions.map((s) => s.key)).toEqual(['a', 'b']);
      expect(out.messages).toHaveLength(4);
      expect(out.malformed).toHaveLength(1);
      expect(out.malformed[0]?.offset).toBe(Buffer.byteLength(full.slice(0, cut)));
      expect(out.malformed[0]?.line).toBe(full.slice(0, cut).split('\n').length);
    }
  });

  it('returns notSession for JSON that is not a Puffin history', async () => {
    for (const doc of ['[1,2,3]', '{"prompts": []}', '']) {
      const out = await parsePuffinFile(writeHistory(doc));
      expect(out.notSession).toMatch(/not a Puffin history/);
      expect(out.messages).toEqual([]);
    }
  });
});

describe('puffin paths', () => {
  it('reads roots from STRATA_PUFFIN_PATHS and discovers .puffin/history.json below them', () => {
    expect(puffinAdapter.defaultRoots({ STRATA_PUFFIN_PATHS: '/a:/b/c::' })).toEqual(['/a', '/b/c']);
    expect(puffinAdapter.defaultRoots({})).toEqual([]);
    const root = tmp();
    const top = writeHistory({ branches: {} }, root);
    const nested = writeHistory({ branches: {} }, join(root, 'apps', 'web'));
    writeHistory({ branches: {} }, join(root, 'node_modules', 'x'));
    writeHistory({ branches: {} }, join(root, 'a', 'b', 'c', 'd'));
    expect(puffinAdapter.discover(root)).toEqual([nested, top].sort());
  });

  it('detects history.json files whose head mentions branches', () => {
    expect(puffinAdapter.detect('/p/.puffin/history.json', '{\n  "branches": {')).toBe(true);
    expect(puffinAdapter.detect('/p/.puffin/history.json', '{"foo": 1}')).toBe(false);
    expect(puffinAdapter.detect('/p/.puffin/config.json', '{"branches": {}}')).toBe(false);
  });
});
