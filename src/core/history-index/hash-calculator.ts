// Owns content hashes for change detection: SHA-256 per prompt (id, content and response content,
// whitespace normalized), per segment and per branch, and detectChanges → added / modified / removed.
import { sha256 } from '../../shared/hash.js';
import type { ParsedHistory, ParsedPrompt, Segment } from './types.js';

/** Collapses runs of whitespace and trims, so re-indented or re-wrapped text hashes the same. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export interface ChangeSet {
  added: string[];
  modified: string[];
  removed: string[];
}

export function hashPrompt(prompt: ParsedPrompt): string {
  return sha256(
    `${prompt.id}\u0000${normalizeWhitespace(prompt.content)}\u0000` +
      normalizeWhitespace(prompt.response?.content ?? ''),
  );
}

/** Over the hashes of its prompts and overlap prompts, in order (`promptHashes` avoids rehashing). */
export function hashSegment(
  segment: Pick<Segment, 'promptIds' | 'overlapPromptIds'>,
  history: ParsedHistory,
  promptHashes?: Map<string, string>,
): string {
  const lookup = promptHashes ?? hashHistory(history);
  const part = (ids: string[]): string => ids.map((id) => lookup.get(id) ?? `missing:${id}`).join(',');
  return sha256(`${part(segment.overlapPromptIds ?? [])}|${part(segment.promptIds)}`);
}

export function hashBranch(branchId: string, prompts: ParsedPrompt[]): string {
  return sha256(`${branchId}\u0000${prompts.map((p) => hashPrompt(p)).join(',')}`);
}

/** Every prompt's hash, keyed by prompt id. */
export function hashHistory(history: ParsedHistory): Map<string, string> {
  const out = new Map<string, string>();
  for (const prompts of history.branches.values()) for (const p of prompts) out.set(p.id, hashPrompt(p));
  return out;
}

export function detectChanges(oldHashes: Map<string, string>, newHashes: Map<string, string>): ChangeSet {
  const added: string[] = [];
  const modified: string[] = [];
  const removed: string[] = [];
  for (const [id, hash] of newHashes) {
    const old = oldHashes.get(id);
    if (old === undefined) added.push(id);
    else if (old !== hash) modified.push(id);
  }
  for (const id of oldHashes.keys()) if (!newHashes.has(id)) removed.push(id);
  return { added, modified, removed };
}
