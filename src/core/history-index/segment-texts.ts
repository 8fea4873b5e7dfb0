// Owns the second read of a Puffin history: the first read kept only each prompt's hash, token count and
// markers, so memory does not grow with the history. This one fills in the texts of the prompts that
// segments to be summarized need, hands over full segments in batches (the read pauses meanwhile) and
// empties the texts again once no pending segment needs them. The read ends at the last prompt needed.
import { walkPuffinPrompts } from '../../sources/puffin/index.js';
import { checkPrompt } from '../../sources/puffin/schema.js';
import { promptMap } from './content-segmenter.js';
import { toParsedPrompt } from './history-parser.js';
import { redactPrompt } from './redact-history.js';
import type { ParsedHistory, ParsedPrompt, Segment } from './types.js';

export type RunBatch = (batch: Segment[]) => Promise<void>;

export interface SegmentTextOptions {
  streamThresholdBytes?: number;
}

function idsOf(segment: Segment): string[] {
  return [...new Set([...segment.overlapPromptIds, ...segment.promptIds])];
}

/**
 * Empties a prompt's texts (after the first read has taken its hash, tokens and markers), and the reply
 * details no later step reads, so a prompt kept for segmentation costs little.
 */
export function emptyTexts(prompt: ParsedPrompt): void {
  prompt.content = '';
  if (prompt.response) {
    prompt.response.content = '';
    prompt.response.sessionId = '';
    prompt.response.cost = 0;
    prompt.response.duration = 0;
  }
}

/**
 * Reads `path` again and calls `run` with up to `batchSize` segments whose prompts all have their texts.
 * Segments whose prompts are no longer in the file (edited between the reads) run with what was found.
 */
export async function streamSegmentTexts(
  path: string,
  history: ParsedHistory,
  pending: Segment[],
  batchSize: number,
  run: RunBatch,
  options: SegmentTextOptions = {},
): Promise<void> {
  const byId = promptMap(history);
  const users = new Map<string, number>();
  // Most prompts belong to one segment: a bare segment then, a list only for overlap prompts.
  const waiting = new Map<string, Segment | Segment[]>();
  const missing = new Map<Segment, number>();
  for (const segment of pending) {
    const ids = idsOf(segment);
    missing.set(segment, ids.length);
    for (const id of ids) {
      users.set(id, (users.get(id) ?? 0) + 1);
      const list = waiting.get(id);
      if (list === undefined) waiting.set(id, segment);
      else if (Array.isArray(list)) list.push(segment);
      else waiting.set(id, [list, segment]);
    }
  }
  let ready: Segment[] = [];
  const flush = async (): Promise<void> => {
    const batch = ready;
    ready = [];
    await run(batch);
    for (const segment of batch) {
      for (const id of idsOf(segment)) {
        const left = (users.get(id) ?? 1) - 1;
        if (left > 0) users.set(id, left);
        else {
          users.delete(id);
          const prompt = byId.get(id);
          if (prompt) emptyTexts(prompt);
        }
      }
    }
  };
  const arrived = (id: string): void => {
    const list = waiting.get(id);
    for (const segment of list === undefined ? [] : Array.isArray(list) ? list : [list]) {
      const left = missing.get(segment)! - 1;
      missing.set(segment, left);
      if (left === 0) ready.push(segment);
    }
    waiting.delete(id);
  };
  await walkPuffinPrompts(
    path,
    {
      prompt: (branchKey, raw) => {
        const check = checkPrompt(raw);
        if (!check.ok || !waiting.has(check.prompt.id)) return;
        const target = byId.get(check.prompt.id);
        if (!target || target.branchId !== branchKey) return;
        const read = toParsedPrompt(check.prompt, branchKey);
        target.content = read.content;
        if (target.response && read.response) target.response.content = read.response.content;
        redactPrompt(target);
        arrived(check.prompt.id);
        return ready.length >= batchSize ? flush() : undefined;
      },
      branchEnd: () => {},
      skipped: () => {},
      stop: () => waiting.size === 0,
    },
    options,
  );
  for (const id of [...waiting.keys()]) arrived(id);
  while (ready.length > 0) await flush();
}
