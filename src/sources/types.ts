// Owns the source adapter contract: detect → discover → parse. Every agent adapter implements it and
// passes the same contract test suite (test/support/adapter-contract.ts).
import type { AgentName, ParseOutput } from '../shared/model.js';
import type { Env } from '../shared/paths.js';

export interface LineRecord {
  /** The raw line, without its trailing newline. */
  text: string;
  /** 1-based line number in the file. */
  line: number;
}

export interface ParseContext {
  /** Absolute path of the source file. */
  path: string;
  /** State the adapter returned for this file last time (whole-file adapters), if any. */
  previousState?: unknown;
}

interface AdapterBase {
  agent: AgentName;
  /** Human name, e.g. "Claude Code". */
  displayName: string;
  /** Where it looks, in Markdown (the README's agent table and `strata sources`). */
  locations: string;
  /** The files and formats it reads, in Markdown, one short item each. */
  formats: string[];
  /** Default roots on this machine (may not exist). */
  defaultRoots(env: Env): string[];
  /** True when `path` (a file) is one this adapter parses; `head` holds its first bytes (≤ 4 KiB) as text. */
  detect(path: string, head: string): boolean;
  /**
   * Every candidate file under `root` (a folder), without reading their contents beyond names/stat. A
   * FIFO, socket or device named like a candidate is passed to `onSkipped` with the reason, never returned.
   */
  discover(root: string, onSkipped?: (path: string, reason: string) => void): string[];
  /**
   * Optional: for a file this agent writes but strata does not ingest on its own (metadata read with a
   * transcript, an index), the reason to report instead of "not recognised".
   */
  explain?(path: string): string | undefined;
}

/**
 * Line-oriented sources (JSONL). The ingest engine reads only the bytes appended since the last run and
 * hands over complete lines; `parseLines` must not rely on lines it did not receive: merges across runs
 * happen in the store by message key.
 */
export interface LineAdapter extends AdapterBase {
  format: 'lines';
  parseLines(lines: LineRecord[], ctx: ParseContext): ParseOutput;
}

/** Whole-file sources (JSON documents, Markdown, SQLite databases): re-parsed when the file changes. */
export interface FileAdapter extends AdapterBase {
  format: 'file';
  parseFile(ctx: ParseContext): ParseOutput | Promise<ParseOutput>;
  /**
   * Optional cheaper change check for sources whose mtime is not meaningful per session (OpenCode):
   * returns a fingerprint; an unchanged fingerprint skips the parse.
   */
  fingerprint?(ctx: ParseContext): string | undefined;
  /**
   * Optional bounded-memory parse: emits the output in chunks (sessions, messages, issues) as it reads,
   * and resolves with the file-level fields (`notSession`, `state`, `partial`). When present, the
   * engine uses it instead of `parseFile` and writes each chunk as it arrives, in one transaction.
   */
  streamFile?(
    ctx: ParseContext,
    emit: (chunk: ParseOutput) => void,
  ): Promise<Pick<ParseOutput, 'notSession' | 'state' | 'partial'>>;
}

export type SourceAdapter = LineAdapter | FileAdapter;
