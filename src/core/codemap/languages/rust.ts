// Owns symbol extraction for Rust syntax trees (items, impls, traits, macros, attributes, doc comments).
import type { SymbolKind } from '../types.js';
import type { SyntaxNode } from '../tree-sitter-runtime.js';
import { SymbolSink, field, nameOf, withLeadingDecorators, type Extraction } from './common.js';

const ATTRIBUTES = new Set(['attribute_item']);
const isRustDoc = (t: string): boolean => t.startsWith('///') || t.startsWith('//!') || t.startsWith('/**');

const ITEM_KINDS: Record<string, SymbolKind> = {
  function_item: 'function',
  function_signature_item: 'function',
  struct_item: 'struct',
  enum_item: 'enum',
  union_item: 'union',
  trait_item: 'trait',
  type_item: 'type',
  const_item: 'constant',
  static_item: 'variable',
  mod_item: 'module',
  macro_definition: 'macro',
};

export function extractRust(root: SyntaxNode, source: string): Extraction {
  const sink = new SymbolSink(source, isRustDoc);
  visitItems(sink, root, undefined, false);
  return sink.result();
}

function isPub(node: SyntaxNode): boolean {
  return node.namedChildren.some((c) => c.type === 'visibility_modifier');
}

function visitItems(sink: SymbolSink, container: SyntaxNode, parent: string | undefined, inImplOrTrait: boolean): void {
  for (const node of container.namedChildren) {
    if (node.type === 'use_declaration') {
      const arg = field(node, 'argument');
      if (arg) sink.addImport(arg.text.replace(/\s+/g, ''));
      continue;
    }
    if (node.type === 'extern_crate_declaration') {
      const name = nameOf(node);
      if (name) sink.addImport(name);
      continue;
    }
    if (node.type === 'impl_item') {
      const type = field(node, 'type');
      const trait = field(node, 'trait');
      const typeName = baseTypeName(type?.text ?? 'impl');
      const body = field(node, 'body');
      const name = trait ? `${trait.text} for ${typeName}` : typeName;
      sink.add({
        name,
        kind: 'impl',
        range: node,
        firstNode: withLeadingDecorators(node, ATTRIBUTES),
        body,
        exported: false,
        parent,
      });
      if (body) visitItems(sink, body, typeName, true);
      continue;
    }
    let kind = ITEM_KINDS[node.type];
    if (!kind) continue;
    const name = nameOf(node);
    if (!name) continue;
    if (inImplOrTrait && kind === 'function') kind = 'method';
    const body = field(node, 'body');
    const hasBody = body && kind !== 'constant' && kind !== 'variable' && kind !== 'type';
    const exported = isPub(node) || (inImplOrTrait && parentIsTrait(container));
    sink.add({
      name,
      kind,
      range: node,
      firstNode: withLeadingDecorators(node, ATTRIBUTES),
      body: hasBody ? body : null,
      exported,
      parent,
    });
    if ((kind === 'trait' || kind === 'module') && body) visitItems(sink, body, name, kind === 'trait');
  }
}

function parentIsTrait(container: SyntaxNode): boolean {
  return container.parent?.type === 'trait_item';
}

/** `Vec<T>` → `Vec`, `&'a mut Foo` → `Foo`. */
function baseTypeName(text: string): string {
  const cleaned = text.replace(/^&('\w+\s+)?(mut\s+)?/, '');
  const angle = cleaned.indexOf('<');
  return (angle === -1 ? cleaned : cleaned.slice(0, angle)).trim();
}
