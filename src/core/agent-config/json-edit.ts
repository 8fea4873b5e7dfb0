// Owns editing a client's JSON configuration in place: the text is parsed to a syntax tree (comments and
// trailing commas allowed, as the clients allow them), and only strata's own values are changed through
// jsonc-parser's edits, so numbers, key order, duplicate keys and comments elsewhere stay as written.
import {
  applyEdits,
  findNodeAtLocation,
  getNodeValue,
  modify,
  parseTree,
  printParseErrorCode,
  type Edit,
  type FormattingOptions,
  type JSONPath,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { StrataError } from '../../shared/errors.js';

export type JsonObject = Record<string, unknown>;

/** The root object of `text`; CONFIG (file left unchanged) when it is not a JSON object. */
export function parseJsonRoot(text: string, path: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first)
    throw new StrataError(
      'CONFIG',
      `cannot parse ${path} as JSON (${printParseErrorCode(first.error)} at offset ${first.offset}); left it unchanged`,
    );
  if (root?.type !== 'object') throw new StrataError('CONFIG', `${path} is not a JSON object; left it unchanged`);
  return root;
}

/** The property values named `key` in an object node (more than one when the file repeats the key). */
function propertiesNamed(object: Node, key: string): Node[] {
  return (object.children ?? []).filter((p) => p.children?.[0]?.value === key).map((p) => p.children![1]!);
}

/**
 * The node at `keys` (object keys only), undefined when absent; CONFIG when a key is repeated (a client reads
 * the last one, an edit could land on another) or a value on the way is not of the expected type.
 */
export function nodeAt(root: Node, keys: string[], path: string, type: 'object' | 'array'): Node | undefined {
  let node = root;
  for (const [i, key] of keys.entries()) {
    const found = propertiesNamed(node, key);
    if (found.length === 0) return undefined;
    if (found.length > 1)
      throw new StrataError('CONFIG', `${path} has "${key}" more than once; edit it by hand, left it unchanged`);
    node = found[0]!;
    const wanted = i === keys.length - 1 ? type : 'object';
    if (node.type !== wanted)
      throw new StrataError('CONFIG', `"${key}" in ${path} is not an ${wanted}; left the file unchanged`);
  }
  return node;
}

/** The value of a node as JSON would read it (used to compare strata's own entries only). */
export const valueOf = (node: Node | undefined): unknown => (node ? getNodeValue(node) : undefined);

/** The file's own indentation and line ends, for the text an edit inserts. */
export function formattingOf(text: string): FormattingOptions {
  const indent = /^[ \t]*\{\s*\n([ \t]+)["/]/.exec(text)?.[1] ?? '  ';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (indent.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent.length, eol };
}

/** How deep the text an edit writes sits: one level below the deepest part of `at` the document has. */
function depthOf(text: string, at: JSONPath): number {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  let existing = 0;
  while (existing < at.length - 1 && root && findNodeAtLocation(root, at.slice(0, existing + 1))) existing++;
  return existing + 1;
}

/**
 * An unformatted insertion's text (`,"key":value`, `value`, ...) laid out in the file's indentation at its
 * depth: each new item on its own line; nothing around it moved.
 */
function layOut(edit: Edit, depth: number, options: FormattingOptions): string {
  const eol = options.eol ?? '\n';
  const unit = options.insertSpaces ? ' '.repeat(options.tabSize ?? 2) : '\t';
  const indent = unit.repeat(depth);
  const pretty = (json: string) => JSON.stringify(JSON.parse(json), null, unit).replaceAll('\n', eol + indent);
  if (edit.length > 0) return pretty(edit.content);
  const sibling = edit.content.startsWith(',');
  const body = sibling ? edit.content.slice(1) : edit.content;
  const key = /^"(?:[^"\\]|\\.)*":/.exec(body)?.[0];
  const item = key ? `${key} ${pretty(body.slice(key.length))}` : pretty(body);
  return sibling ? `,${eol}${indent}${item}` : `${eol}${indent}${item}${eol}${unit.repeat(depth - 1)}`;
}

/**
 * A new sibling goes after a comment that ends its predecessor's line (the comment stays with the item it
 * follows): the comma right after the predecessor, the item after the comment.
 */
function afterTrailingComment(text: string, edit: Edit): Edit[] {
  if (edit.length > 0 || !edit.content.startsWith(',')) return [edit];
  const rest = /^[ \t]*(?:\/\/[^\r\n]*|\/\*[^\r\n]*?\*\/[ \t]*)(?=\r?\n)/.exec(text.slice(edit.offset));
  if (!rest) return [edit];
  return [
    { offset: edit.offset, length: 0, content: ',' },
    { offset: edit.offset + rest[0].length, length: 0, content: edit.content.slice(1) },
  ];
}

/** `text` with the value at `at` set (undefined: removed; `insert`: an array item inserted, -1 appends). */
export function editJson(text: string, at: JSONPath, value: unknown, insert = false): string {
  const edits = modify(text, at, value, { isArrayInsertion: insert });
  const options = formattingOf(text);
  const depth = depthOf(text, at);
  return applyEdits(
    text,
    edits.flatMap((e) =>
      e.content === '' ? [e] : afterTrailingComment(text, { ...e, content: layOut(e, depth, options) }),
    ),
  );
}

/** A new file's text: strata's entries only, two-space indented. */
export const newJsonText = (value: JsonObject): string => JSON.stringify(value, null, 2) + '\n';

/** The hook commands strata writes (`strata hook ingest|context`, `--client` optional): only these are strata's. */
const STRATA_COMMAND = /^strata hook (?:ingest|context)(?: --client (?:claude-code|codex|gemini|cursor|opencode))?$/;

export const isStrataCommand = (command: unknown): boolean =>
  typeof command === 'string' && STRATA_COMMAND.test(command.trim());
