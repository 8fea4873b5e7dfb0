// Owns `--mode lexical|semantic|hybrid`: lexical is search.ts; semantic ranks sessions by their best
// passage's cosine; hybrid fuses both session lists by reciprocal rank (k = 60). Without a mode, hybrid
// wherever the store holds vectors and a provider can embed the query, lexical otherwise. Regular
// expressions and -l/-c stay lexical (they match text, not meaning).
import type { Database } from 'better-sqlite3';
import { StrataError } from '../../shared/errors.js';
import { checkQuerySize } from '../../shared/query-limits.js';
import { embeddingModels } from '../../store/embeddings.js';
import { search, type SearchOptions, type SearchResult, type SearchSession } from '../retrieval/search.js';
import { fuseRanks, rankSemantic, semanticSessions } from './semantic.js';
import type { EmbeddingProvider } from './types.js';

export type SearchMode = 'lexical' | 'semantic' | 'hybrid';
export const SEARCH_MODES: readonly SearchMode[] = ['lexical', 'semantic', 'hybrid'];

/** Sessions each ranking contributes to the fusion (deja-vu's and our bench rank within the top 50). */
const FUSED_DEPTH = 50;
export const RRF_K = 60;

export interface ModeSearchOptions extends SearchOptions {
  mode?: SearchMode;
}

/** The mode a search runs in: the asked one, else hybrid when vectors and a provider exist. */
export function resolveMode(db: Database, options: ModeSearchOptions, provider: EmbeddingProvider | undefined) {
  const textOnly = Boolean(options.regex || options.exhaustive);
  if (options.mode && options.mode !== 'lexical') {
    if (textOnly) throw new StrataError('USAGE', `--mode ${options.mode} does not apply to -E, -l or -c`);
    if (!provider) throw new StrataError('CONFIG', 'no embeddings in this store: run `strata embed` first');
    return options.mode;
  }
  if (options.mode === 'lexical' || textOnly || !provider) return 'lexical';
  return embeddingModels(db).some((m) => m.model === provider.model) ? 'hybrid' : 'lexical';
}

export async function searchWithMode(
  db: Database,
  options: ModeSearchOptions,
  provider: EmbeddingProvider | undefined,
): Promise<SearchResult> {
  const mode = resolveMode(db, options, provider);
  if (mode === 'lexical') return { ...search(db, options), ranking: 'lexical' };
  if (options.query.trim() === '') throw new StrataError('INVALID_QUERY', 'invalid query: it is empty');
  checkQuerySize(options.query, options.regex);
  const limit = options.limit ?? 20;
  const context = options.context ?? 12;
  let query: Float32Array | undefined;
  try {
    [query] = await provider!.embed([options.query]);
  } catch (error) {
    // Hybrid by default must not make search fail (Ollama stopped, the offline model uninstalled).
    if (options.mode) throw error;
    return { ...search(db, options), ranking: 'lexical' };
  }
  const semantic = rankSemantic(db, provider!.model, query!, options, Math.max(limit, FUSED_DEPTH));
  if (mode === 'semantic') {
    const sessions = semanticSessions(db, semantic.slice(0, limit), options.query, context);
    return { query: options.query, mode: 'fts', ranking: 'semantic', sessions };
  }
  const lexical = search(db, { ...options, limit: Math.max(limit, FUSED_DEPTH) });
  const byId = new Map<string, SearchSession>(lexical.sessions.map((s) => [s.id, s]));
  const externalIds = semanticIds(db, semantic);
  const order = fuseRanks([lexical.sessions.map((s) => s.id), externalIds], RRF_K).slice(0, limit);
  const scoreOf = new Map(semantic.map((h, i) => [externalIds[i]!, h]));
  const onlySemantic = order.filter((id) => !byId.has(id)).map((id) => scoreOf.get(id)!);
  for (const s of semanticSessions(db, onlySemantic, options.query, context)) byId.set(s.id, s);
  const sessions = order.map((id) => {
    const s = byId.get(id)!;
    const hit = scoreOf.get(id);
    return hit && s.semantic === undefined ? { ...s, semantic: Math.round(hit.score * 1000) / 1000 } : s;
  });
  const { hidden: _hidden, ...rest } = lexical;
  return {
    ...rest,
    ranking: 'hybrid',
    sessions,
    ...(sessions.length === 0 && lexical.hidden ? { hidden: lexical.hidden } : {}),
  };
}

function semanticIds(db: Database, hits: Array<{ sessionId: number }>): string[] {
  const get = db.prepare('SELECT external_id FROM sessions WHERE id = ?').pluck();
  return hits.map((h) => get.get(h.sessionId) as string);
}
