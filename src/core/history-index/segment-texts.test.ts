import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ContentSegmenter } from './content-segmenter.js';
import { HistoryParser } from './history-parser.js';
import { emptyTexts, streamSegmentTexts } from './segment-texts.js';
import type { ParsedPrompt, Segment } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'strata-segment-texts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeHistory(): string {
  const prompts = [];
  for (let t = 0; t < 6; t++) {
    for (let k = 0; k < 3; k++) {
      prompts.push({
        id: `t${t}-${k}`,
        parentId: k === 0 ? null : `t${t}-${k - 1}`,
        content: `thread ${t} turn ${k} asks about token sk-ant-api03-${'x'.repeat(90)}`,
        timestamp: 1000 + t * 10 + k,
        response: { content: `reply ${t}.${k}`, timestamp: 2000 },
      });
    }
  }
  const path = join(dir, 'history.json');
  writeFileSync(path, JSON.stringify({ branches: { main: { id: 'main', name: 'main', prompts } } }));
  return path;
}

describe('streamSegmentTexts', () => {
  for (const threshold of [undefined, 0]) {
    it(`fills each batch's texts, redacted, then empties them (threshold ${threshold ?? 'default'})`, async () => {
      const path = writeHistory();
      const history = await new HistoryParser(path, { visit: emptyTexts }).parse();
      const all = [...history.branches.values()].flat();
      expect(all.every((p) => p.content === '' && p.response?.content === '')).toBe(true);
      const segments = new ContentSegmenter({ conversationsPerSegment: 1 }).segment(history);
      expect(segments).toHaveLength(6);
      const pending = segments.filter((_, i) => i !== 2);
      const byId = new Map(all.map((p) => [p.id, p] as const));
      const batches: string[][] = [];
      await streamSegmentTexts(
        path,
        history,
        pending,
        2,
        async (batch: Segment[]) => {
          batches.push(batch.map((s) => s.id));
          for (const s of batch) {
            for (const id of s.promptIds) {
              const p: ParsedPrompt = byId.get(id)!;
              expect(p.content).toMatch(/^thread \d turn \d asks about token \[REDACTED/);
              expect(p.response!.content).toMatch(/^reply /);
            }
          }
        },
        threshold === undefined ? {} : { streamThresholdBytes: threshold },
      );
      expect(batches.map((b) => b.length)).toEqual([2, 2, 1]);
      expect(batches.flat().sort()).toEqual(pending.map((s) => s.id).sort());
      expect(all.every((p) => p.content === '' && p.response?.content === '')).toBe(true);
    });
  }
});
