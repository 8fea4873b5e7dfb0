// Owns what the first read of a history keeps of each prompt: its hash, token count (reused from the
// existing index when the hash is unchanged), markers and corpus counts. For a Puffin file the texts are
// then emptied; the summarize step reads them again segment by segment.
import { countTokens } from '../../shared/tokenizer.js';
import { renderTurn } from './content-segmenter.js';
import { hashPrompt } from './hash-calculator.js';
import type { HistoryCorpus } from './history-corpus.js';
import type { MarkerExtractor } from './marker-extractor.js';
import { redactPrompt } from './redact-history.js';
import { emptyTexts } from './segment-texts.js';
import type { IndexMarker, ParsedPrompt } from './types.js';

export type PromptEntries = Record<string, { hash: string; tokens: number }>;

export class FirstRead {
  readonly prompts: PromptEntries = {};
  readonly promptHashes = new Map<string, string>();
  readonly markersOf = new Map<string, IndexMarker[]>();

  constructor(
    private readonly extractor: MarkerExtractor,
    private readonly corpus: HistoryCorpus,
    private readonly oldPrompts: PromptEntries,
    /** Empty the texts once counted (a Puffin file is read again for them). */
    private readonly streamed: boolean,
  ) {}

  readonly visit = (p: ParsedPrompt): void => {
    redactPrompt(p);
    const found = [
      ...this.extractor.extract(p.content, { promptId: p.id, field: 'prompt' }),
      ...this.extractor.extract(p.response?.content ?? '', { promptId: p.id, field: 'response' }),
    ];
    if (found.length > 0) {
      this.markersOf.set(
        p.id,
        found.map((m) => ({
          type: m.type,
          content: m.content,
          promptId: m.sourcePromptId,
          sourceField: m.sourceField,
          importance: Math.min(1, Math.max(0, m.priority / 10)),
          lineNumber: m.lineNumber,
          context: m.context,
          branchId: p.branchId,
          ...(p.timestamp > 0 ? { timestamp: new Date(p.timestamp).toISOString() } : {}),
        })),
      );
    }
    const hash = hashPrompt(p);
    const old = this.oldPrompts[p.id];
    this.promptHashes.set(p.id, hash);
    this.prompts[p.id] = { hash, tokens: old && old.hash === hash ? old.tokens : countTokens(renderTurn(p)) };
    this.corpus.add(`${p.content}\n${p.response?.content ?? ''}`);
    if (this.streamed) emptyTexts(p);
  };
}
