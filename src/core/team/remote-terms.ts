// Owns which words of a question a team-store search keeps: lexemes as PostgreSQL's `english` parser
// makes them, less those in more than COMMON of the blocks by the planner's own statistics (pg_stats
// of the tsvector column, kept by ANALYZE), so a question's rare words drive a GIN index scan.
import type { PgClient } from '../../store/team/pg-client.js';

/** A lexeme in more than this share of blocks does not select (unless every lexeme is that common). */
const COMMON = 0.01;

/** The tsquery text for the words: one word as a prefix, several as their rarer lexemes, OR-ed. */
export async function questionTsquery(client: PgClient, words: string[]): Promise<string | undefined> {
  if (words.length === 0) return undefined;
  if (words.length === 1) return `${words[0]}:*`;
  const lexemes = (
    await client.query<{ lexeme: string }>("SELECT lexeme FROM unnest(to_tsvector('english', $1))", [words.join(' ')])
  ).rows.map((r) => r.lexeme);
  if (lexemes.length === 0) return undefined;
  const stats = await client.query<{ elems: string[] | null; freqs: number[] | null }>(
    `SELECT most_common_elems::text::text[] AS elems, most_common_elem_freqs AS freqs FROM pg_stats
     WHERE schemaname = 'strata' AND tablename = 'blocks' AND attname = 'tsv'`,
  );
  const row = stats.rows[0];
  const share = new Map<string, number>();
  row?.elems?.forEach((e, i) => share.set(e, row.freqs?.[i] ?? 0));
  const byRarity = [...lexemes].sort((a, b) => (share.get(a) ?? 0) - (share.get(b) ?? 0));
  const rare = byRarity.filter((l) => (share.get(l) ?? 0) <= COMMON);
  const kept = rare.length > 0 ? rare : byRarity.slice(0, 2);
  return kept.map((l) => `'${l.replace(/'/g, "''")}'`).join(' | ');
}
