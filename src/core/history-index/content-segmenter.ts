// Owns ContentSegmenter: divides a parsed history into segments for summarization. Segments
// never mix branches; with natural boundaries they hold whole conversations (root prompt + descendants),
// several small ones packed together up to maxTokensPerSegment with content-defined boundaries (an edit
// or an appended conversation never shifts later boundaries); a conversation too big for one segment
// is split at turn boundaries, each part after the first starting with `segmentOverlap` tokens of
// context. Token counts come from the one tokenizer module.
import { countTokens } from '../../shared/tokenizer.js';
import { sha256 } from '../../shared/hash.js';
import { withoutRepeatedLines, type HistoryCorpus } from './history-corpus.js';
import type { ParsedHistory, ParsedPrompt, Segment, SegmentationConfig } from './types.js';

export const DEFAULT_SEGMENTATION: SegmentationConfig = {
  maxTokensPerSegment: 50_000,
  segmentOverlap: 1_000,
  preferNaturalBoundaries: true,
  conversationsPerSegment: 8,
};

/** One turn as counted for segmentation (token counts are cached per prompt hash, so this stays fixed). */
export function renderTurn(p: ParsedPrompt): string {
  const when = p.timestamp > 0 ? ` (${new Date(p.timestamp).toISOString()})` : '';
  let text = `### Prompt ${p.id}${when}\nUser: ${p.content}\n`;
  if (p.response && p.response.content !== '') text += `\nAssistant: ${p.response.content}\n`;
  return text;
}

/** One turn as the summarizer sees it: no header, ids masked, boilerplate lines dropped. */
export function summaryTurn(p: ParsedPrompt, corpus?: HistoryCorpus): string {
  const user = withoutRepeatedLines(p.content, corpus).trim();
  const reply = p.response ? withoutRepeatedLines(p.response.content, corpus).trim() : '';
  return `${user ? `User: ${user}\n` : ''}${reply ? `Assistant: ${reply}\n` : ''}`;
}

export function segmentIdFor(branchId: string, firstPromptId: string): string {
  return `seg-${sha256(`${branchId}\u0000${firstPromptId}`).slice(0, 16)}`;
}

export interface SegmenterOptions {
  /** Token count of one turn (the pipeline passes a cache keyed by prompt hash). */
  tokensOf?: (prompt: ParsedPrompt) => number;
}

const promptMaps = new WeakMap<ParsedHistory, Map<string, ParsedPrompt>>();

/** One id → prompt map per history, shared by every reader of it (one table per run, not one per step). */
export function promptMap(history: ParsedHistory): Map<string, ParsedPrompt> {
  let map = promptMaps.get(history);
  if (!map) {
    map = new Map();
    for (const prompts of history.branches.values()) for (const p of prompts) map.set(p.id, p);
    promptMaps.set(history, map);
  }
  return map;
}

export class ContentSegmenter {
  readonly config: SegmentationConfig;
  private readonly tokensOf: (prompt: ParsedPrompt) => number;

  constructor(config: Partial<SegmentationConfig> = {}, options: SegmenterOptions = {}) {
    this.config = { ...DEFAULT_SEGMENTATION, ...config };
    if (!(this.config.maxTokensPerSegment > 0)) throw new RangeError('maxTokensPerSegment must be positive');
    this.tokensOf = options.tokensOf ?? ((p) => countTokens(renderTurn(p)));
  }

  segment(history: ParsedHistory): Segment[] {
    const out: Segment[] = [];
    for (const [branchId, prompts] of history.branches) {
      if (prompts.length === 0) continue;
      const tokens = new Map(prompts.map((p) => [p.id, this.tokensOf(p)] as const));
      if (!this.config.preferNaturalBoundaries) {
        out.push(...this.splitTurns(branchId, prompts, tokens));
        continue;
      }
      let group: ParsedPrompt[] = [];
      let groupTokens = 0;
      const flush = (): void => {
        if (group.length > 0) out.push(this.make(branchId, group, [], tokens));
        group = [];
        groupTokens = 0;
      };
      for (const tree of conversations(prompts)) {
        const treeTokens = tree.prompts.reduce((n, p) => n + tokens.get(p.id)!, 0);
        if (treeTokens > this.config.maxTokensPerSegment) {
          flush();
          out.push(...this.splitTurns(branchId, tree.prompts, tokens));
          continue;
        }
        if (groupTokens + treeTokens > this.config.maxTokensPerSegment) flush();
        group.push(...tree.prompts);
        groupTokens += treeTokens;
        if (this.closesSegment(tree.rootId)) flush();
      }
      flush();
    }
    return out;
  }

  /**
   * The segment's text for the summarizer: overlap context, then its turns as "User:" / "Assistant:"
   * lines. No prompt ids, timestamps or branch ids (a summary must not quote them); with a corpus, lines
   * repeated across conversations (templates, boilerplate) are left out.
   */
  getSegmentContent(segment: Segment, history: ParsedHistory, corpus?: HistoryCorpus): string {
    const byId = promptMap(history);
    const turns = (ids: string[]): string =>
      ids
        .map((id) => byId.get(id))
        .filter((p): p is ParsedPrompt => p !== undefined)
        .map((p) => summaryTurn(p, corpus))
        .join('\n---\n');
    const overlap = turns(segment.overlapPromptIds);
    return (
      (overlap
        ? `(Context: the end of the previous part of this conversation)\n${overlap}\n(End of context)\n\n`
        : '') + turns(segment.promptIds)
    );
  }

  private closesSegment(rootId: string): boolean {
    const every = Math.max(1, Math.floor(this.config.conversationsPerSegment));
    return every === 1 || parseInt(sha256(rootId).slice(0, 8), 16) % every === 0;
  }

  /** Greedy split at turn boundaries; each part after the first repeats up to `segmentOverlap` tokens. */
  private splitTurns(branchId: string, prompts: ParsedPrompt[], tokens: Map<string, number>): Segment[] {
    const parts: ParsedPrompt[][] = [];
    let part: ParsedPrompt[] = [];
    let partTokens = 0;
    for (const p of prompts) {
      const t = tokens.get(p.id)!;
      if (part.length > 0 && partTokens + t > this.config.maxTokensPerSegment) {
        parts.push(part);
        part = [];
        partTokens = 0;
      }
      part.push(p);
      partTokens += t;
    }
    if (part.length > 0) parts.push(part);
    return parts.map((turns, i) => {
      const overlap: ParsedPrompt[] = [];
      let budget = this.config.segmentOverlap;
      const previous = i > 0 ? parts[i - 1]! : [];
      for (let j = previous.length - 1; j >= 0 && budget > 0; j--) {
        const t = tokens.get(previous[j]!.id)!;
        if (t > budget) break;
        overlap.unshift(previous[j]!);
        budget -= t;
      }
      return this.make(branchId, turns, overlap, tokens);
    });
  }

  private make(
    branchId: string,
    prompts: ParsedPrompt[],
    overlap: ParsedPrompt[],
    tokens: Map<string, number>,
  ): Segment {
    let start = Infinity;
    let end = 0;
    for (const p of prompts) {
      if (p.timestamp > 0) start = Math.min(start, p.timestamp);
      end = Math.max(end, p.timestamp, p.response?.timestamp ?? 0);
    }
    const tokenCount = [...overlap, ...prompts].reduce((n, p) => n + tokens.get(p.id)!, 0);
    return {
      id: segmentIdFor(branchId, prompts[0]!.id),
      promptIds: prompts.map((p) => p.id),
      overlapPromptIds: overlap.map((p) => p.id),
      tokenCount,
      startTimestamp: Number.isFinite(start) ? start : 0,
      endTimestamp: end,
      branchId,
      hash: '',
    };
  }
}

/**
 * Conversations of one branch in order of first appearance: a root (parentId null, or a parent outside the branch) and
 * its descendants.
 */
export function conversations(prompts: ParsedPrompt[]): Array<{ rootId: string; prompts: ParsedPrompt[] }> {
  const inBranch = new Map(prompts.map((p) => [p.id, p] as const));
  const rootOf = new Map<string, string>();
  const find = (p: ParsedPrompt): string => {
    const chain: string[] = [];
    const seen = new Set<string>();
    let cur: ParsedPrompt | undefined = p;
    let root = p.id;
    while (cur) {
      const known = rootOf.get(cur.id);
      if (known !== undefined) {
        root = known;
        break;
      }
      if (seen.has(cur.id)) break;
      seen.add(cur.id);
      chain.push(cur.id);
      root = cur.id;
      cur = cur.parentId === null ? undefined : inBranch.get(cur.parentId);
    }
    for (const id of chain) rootOf.set(id, root);
    return root;
  };
  const trees = new Map<string, ParsedPrompt[]>();
  for (const p of prompts) {
    const root = find(p);
    let list = trees.get(root);
    if (!list) trees.set(root, (list = []));
    list.push(p);
  }
  return [...trees].map(([rootId, list]) => ({ rootId, prompts: list }));
}
