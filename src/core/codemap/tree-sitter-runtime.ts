// Owns the web-tree-sitter runtime: one-time init, lazy grammar loading, and parsing with a timeout.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { GRAMMAR_FILES, type LanguageId } from './language-table.js';

// web-tree-sitter is CommonJS with an `export =` declaration: load it through require to keep types exact.
const Parser = createRequire(import.meta.url)('web-tree-sitter') as typeof import('web-tree-sitter');
type Parser = InstanceType<typeof Parser>;
type Language = import('web-tree-sitter').Language;
type Tree = import('web-tree-sitter').Tree;
export type SyntaxNode = import('web-tree-sitter').SyntaxNode;
export type ParsedLanguage = Exclude<LanguageId, 'markdown'>;

/** Thrown by `parseSource` when tree-sitter gives up because the per-file timeout elapsed. */
export class ParseTimeoutError extends Error {
  constructor(ms: number) {
    super(`parse exceeded ${ms} ms`);
    this.name = 'ParseTimeoutError';
  }
}

let initPromise: Promise<void> | undefined;
const languages = new Map<ParsedLanguage, Promise<Language>>();
let parser: Parser | undefined;

/** Folder holding the tree-sitter-wasms grammar files. */
export function grammarDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out');
}

function init(): Promise<void> {
  if (!initPromise) initPromise = Parser.init();
  return initPromise;
}

/** Loads (once) the grammar of `language`; rejects with the loader's message when the wasm is unusable. */
export async function loadGrammar(language: ParsedLanguage): Promise<Language> {
  await init();
  const cached = languages.get(language);
  if (cached) return cached;
  const pending = Parser.Language.load(join(grammarDir(), GRAMMAR_FILES[language]));
  languages.set(language, pending);
  pending.catch(() => languages.delete(language));
  return pending;
}

/**
 * Parses `source` and hands the root node to `use`; the tree is freed afterwards.
 * Throws ParseTimeoutError when tree-sitter stops at the timeout (0 = no timeout).
 */
export async function withSyntaxTree<T>(
  language: ParsedLanguage,
  source: string,
  timeoutMs: number,
  use: (root: SyntaxNode) => T,
): Promise<T> {
  const grammar = await loadGrammar(language);
  parser ??= new Parser();
  const p = parser;
  p.setLanguage(grammar);
  p.setTimeoutMicros(Math.max(0, Math.round(timeoutMs * 1000)));
  let tree: Tree;
  try {
    tree = p.parse(source);
  } catch (error) {
    p.reset();
    if (timeoutMs > 0 && error instanceof Error && /Parsing failed/.test(error.message))
      throw new ParseTimeoutError(timeoutMs);
    // A crashed parser may be in a bad state: start a fresh one next time.
    parser = undefined;
    p.delete();
    throw error;
  }
  try {
    return use(tree.rootNode);
  } finally {
    tree.delete();
  }
}
