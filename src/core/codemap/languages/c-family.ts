// Owns symbol extraction for C and C++ syntax trees (functions, structs, classes, namespaces, templates, macros).
import type { CodeSymbol, SymbolKind } from '../types.js';
import type { SyntaxNode } from '../tree-sitter-runtime.js';
import { SymbolSink, anyComment, collapse, field, type Extraction } from './common.js';

/** Function declarations without a body found in the current file (reset per file). */
const prototypes = new Set<CodeSymbol>();
const CONTAINERS = new Set([
  'preproc_ifdef',
  'preproc_if',
  'preproc_else',
  'preproc_elif',
  'linkage_specification',
  'declaration_list',
]);
const TYPE_SPECIFIERS: Record<string, SymbolKind> = {
  struct_specifier: 'struct',
  union_specifier: 'union',
  enum_specifier: 'enum',
  class_specifier: 'class',
};

export function extractCFamily(root: SyntaxNode, source: string): Extraction {
  const sink = new SymbolSink(source, anyComment);
  prototypes.clear();
  visit(sink, root, undefined);
  // A prototype whose definition is in the same file: keep the definition only.
  const key = (s: CodeSymbol): string => `${s.parent ?? ''}:${s.name}`;
  const defined = new Set(sink.symbols.filter((s) => !prototypes.has(s)).map(key));
  const kept = sink.symbols.filter((s) => !(prototypes.has(s) && defined.has(key(s))));
  return { symbols: kept.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine), imports: sink.imports };
}

function visit(sink: SymbolSink, container: SyntaxNode, parent: string | undefined, wrapper?: SyntaxNode): void {
  for (const node of container.namedChildren) handle(sink, node, parent, wrapper);
}

function handle(sink: SymbolSink, node: SyntaxNode, parent: string | undefined, wrapper?: SyntaxNode): void {
  const range = wrapper ?? node;
  if (CONTAINERS.has(node.type)) {
    const body = node.type === 'linkage_specification' ? field(node, 'body') : node;
    if (body) visit(sink, body, parent);
    return;
  }
  switch (node.type) {
    case 'preproc_include': {
      const path = field(node, 'path');
      if (path) sink.addImport(path.text);
      return;
    }
    case 'using_declaration':
      return;
    case 'preproc_def':
    case 'preproc_function_def': {
      const name = field(node, 'name')?.text;
      if (name)
        sink.add({ name, kind: 'macro', range, exported: true, parent, signature: node.text.split('\n')[0]!.trim() });
      return;
    }
    case 'template_declaration': {
      const inner = node.namedChildren.find((c) => c.type !== 'template_parameter_list');
      if (inner) handle(sink, inner, parent, range);
      return;
    }
    case 'namespace_definition': {
      const name = field(node, 'name')?.text ?? '(anonymous)';
      const body = field(node, 'body');
      sink.add({ name, kind: 'namespace', range, body, exported: true, parent });
      if (body) visit(sink, body, name);
      return;
    }
    case 'function_definition': {
      const fn = functionName(field(node, 'declarator'));
      if (!fn) return;
      const owner = fn.scope ?? parent;
      const owner2 = fn.scope ?? (container(node) ? parent : undefined);
      const kind: SymbolKind = owner2 ? (owner2.split('::').pop() === fn.name ? 'constructor' : 'method') : 'function';
      sink.add({
        name: fn.name,
        kind,
        range,
        decl: wrapper ?? node,
        body: field(node, 'body'),
        exported: !isStatic(node),
        parent: owner,
      });
      return;
    }
    case 'declaration':
    case 'field_declaration': {
      const type = field(node, 'type');
      if (type && TYPE_SPECIFIERS[type.type] && field(type, 'body')) handle(sink, type, parent, range);
      for (const decl of declarators(node)) {
        const fn = functionName(decl);
        if (fn && hasFunctionDeclarator(decl)) {
          const owner = fn.scope ?? (container(node) ? parent : undefined);
          const kind: SymbolKind = owner
            ? owner.split('::').pop() === fn.name
              ? 'constructor'
              : 'method'
            : 'function';
          const signature = collapse(node.text.replace(/;\s*$/, ''));
          prototypes.add(
            sink.add({ name: fn.name, kind, range, exported: !isStatic(node), parent: fn.scope ?? parent, signature }),
          );
        } else if (fn) {
          const kind: SymbolKind = node.type === 'field_declaration' ? 'property' : 'variable';
          sink.add({ name: fn.name, kind, range, exported: !isStatic(node), parent });
        }
      }
      return;
    }
    case 'type_definition': {
      const type = field(node, 'type');
      const alias = declarators(node)
        .map((d) => functionName(d)?.name)
        .find(Boolean);
      if (type && TYPE_SPECIFIERS[type.type] && field(type, 'body')) {
        const name = field(type, 'name')?.text ?? alias;
        if (name) addType(sink, type, name, parent, range);
      } else if (alias) {
        sink.add({ name: alias, kind: 'type', range, exported: true, parent });
      }
      return;
    }
    default:
      if (TYPE_SPECIFIERS[node.type]) {
        const name = field(node, 'name')?.text;
        if (name && field(node, 'body')) addType(sink, node, name, parent, range);
      }
  }
}

function addType(
  sink: SymbolSink,
  node: SyntaxNode,
  name: string,
  parent: string | undefined,
  range: SyntaxNode,
): void {
  const body = field(node, 'body');
  const kind = TYPE_SPECIFIERS[node.type] ?? 'type';
  const rangeStart = range.startIndex < node.startIndex ? range : node;
  sink.add({ name, kind, range, decl: rangeStart, body, exported: true, parent });
  if (body && (kind === 'class' || kind === 'struct' || kind === 'union')) {
    for (const member of body.namedChildren) {
      if (
        member.type === 'function_definition' ||
        member.type === 'field_declaration' ||
        member.type === 'template_declaration' ||
        member.type === 'declaration'
      ) {
        handle(sink, member, name);
      }
    }
  }
}

function container(node: SyntaxNode): boolean {
  return node.parent?.type === 'field_declaration_list';
}

function isStatic(node: SyntaxNode): boolean {
  return node.namedChildren.some((c) => c.type === 'storage_class_specifier' && c.text === 'static');
}

function declarators(node: SyntaxNode): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (child && isDeclaratorField(node, i)) found.push(child);
  }
  return found;
}

function isDeclaratorField(node: SyntaxNode, index: number): boolean {
  const cursor = node.walk();
  try {
    if (!cursor.gotoFirstChild()) return false;
    for (let i = 0; i < index; i++) if (!cursor.gotoNextSibling()) return false;
    return cursor.currentFieldName() === 'declarator';
  } finally {
    cursor.delete();
  }
}

function hasFunctionDeclarator(node: SyntaxNode | null): boolean {
  let current = node;
  while (current) {
    if (current.type === 'function_declarator') return true;
    current = field(current, 'declarator');
  }
  return false;
}

/** Name (and `Scope::` qualifier) declared by a declarator, unwrapping pointers, references and initialisers. */
function functionName(node: SyntaxNode | null): { name: string; scope?: string } | undefined {
  let current = node;
  while (current) {
    switch (current.type) {
      case 'identifier':
      case 'field_identifier':
      case 'type_identifier':
      case 'operator_name':
      case 'destructor_name':
        return { name: current.text };
      case 'qualified_identifier': {
        const scope = field(current, 'scope')?.text;
        const inner = functionName(field(current, 'name'));
        if (!inner) return undefined;
        const base = scope?.replace(/<.*>$/s, '');
        return base ? { name: inner.name, scope: inner.scope ? `${base}::${inner.scope}` : base } : inner;
      }
      default: {
        const next = field(current, 'declarator');
        if (!next) {
          const ref = current.namedChildren.find((c) => c.type.endsWith('declarator') || c.type === 'identifier');
          current = ref ?? null;
        } else current = next;
      }
    }
  }
  return undefined;
}
