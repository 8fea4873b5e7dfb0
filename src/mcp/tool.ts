// Owns the shape every MCP tool file exports (name, schemas, handler over the core) and how a handler's
// answer or error becomes a tool result: structuredContent plus one readable text block, or isError
// carrying the CLI's one-line message (never a stack trace).
import type { ZodRawShape, z } from 'zod';
import type { Store } from '../store/db.js';
import type { Env } from '../shared/paths.js';
import type { ParseCache } from '../core/codemap/parse-cache.js';
import type { RefreshOutcome } from '../core/ingest/refresh.js';
import type { SessionReader } from '../core/retrieval/session-reader.js';
import { StrataError, describeError } from '../shared/errors.js';

export interface ToolContext {
  store: Store;
  /** The store's search, listing and read (the interface `strata mcp --remote` answers through too). */
  reader: SessionReader;
  env: Env;
  /** Folders the pack and code tools may read under (the first one resolves relative paths). */
  roots: string[];
  /** Brings the store up to date when stale; never waits for another writer. */
  refresh: () => Promise<RefreshOutcome>;
  /** Parse results kept for the server's life (nothing written to disk). */
  parseCache: ParseCache;
}

export interface ToolAnswer<Out> {
  text: string;
  structured: Out;
}

export interface StrataTool<In extends ZodRawShape = ZodRawShape, Out extends ZodRawShape = ZodRawShape> {
  name: string;
  title: string;
  description: string;
  inputSchema: In;
  outputSchema: Out;
  /** Refresh the store from the default roots (when stale) before answering. */
  readsHistory: boolean;
  run(
    args: z.objectOutputType<In, z.ZodTypeAny>,
    ctx: ToolContext,
  ): Promise<ToolAnswer<z.objectOutputType<Out, z.ZodTypeAny>>>;
}

/** Keeps the schemas' types attached to the handler's arguments and answer. */
export function defineTool<In extends ZodRawShape, Out extends ZodRawShape>(
  tool: StrataTool<In, Out>,
): StrataTool<In, Out> {
  return tool;
}

export interface CallToolAnswer {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The one-line message the CLI prints for this error. */
export function errorLine(error: unknown): string {
  if (error instanceof StrataError) return `strata: ${error.message}`;
  return `strata: unexpected error: ${describeError(error)}`;
}

export function toolError(error: unknown): CallToolAnswer {
  return { content: [{ type: 'text', text: errorLine(error) }], isError: true };
}

export function toolAnswer(answer: ToolAnswer<unknown>): CallToolAnswer {
  return {
    content: [{ type: 'text', text: answer.text }],
    structuredContent: answer.structured as Record<string, unknown>,
  };
}
