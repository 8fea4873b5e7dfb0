// Owns symbol extraction for TypeScript, TSX and JavaScript syntax trees.
import type { SymbolKind } from '../types.js';
import type { SyntaxNode } from '../tree-sitter-runtime.js';
import { SymbolSink, docCommentOnly, field, nameOf, withLeadingDecorators, type Extraction } from './common.js';

const DECORATORS = new Set(['decorator']);
const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const CLASS_VALUES = new Set(['class', 'class_expression']);

interface Scope {
  parent?: string | undefined;
  exported: boolean;
  /** Outer node whose range and doc belong to the declaration (e.g. the export statement). */
  wrapper?: SyntaxNode;
}

export function extractTypeScript(root: SyntaxNode, source: string): Extraction {
  const sink = new SymbolSink(source, docCommentOnly);
  for (const node of root.namedChildren) visitStatement(sink, node, { exported: false });
  return sink.result();
}

function visitStatement(sink: SymbolSink, node: SyntaxNode, scope: Scope): void {
  switch (node.type) {
    case 'import_statement': {
      const src = field(node, 'source');
      if (src) sink.addImport(src.text);
      return;
    }
    case 'export_statement': {
      const src = field(node, 'source');
      if (src) sink.addImport(src.text);
      const decl = field(node, 'declaration');
      const value = field(node, 'value');
      if (decl) visitStatement(sink, decl, { ...scope, exported: true, wrapper: node });
      else if (value && FUNCTION_VALUES.has(value.type)) {
        sink.add({
          name: 'default',
          kind: 'function',
          range: node,
          body: field(value, 'body'),
          exported: true,
          parent: scope.parent,
        });
      } else if (value && CLASS_VALUES.has(value.type)) {
        addClass(sink, value, nameOf(value) ?? 'default', { ...scope, exported: true, wrapper: node });
      }
      return;
    }
    case 'ambient_declaration':
      for (const child of node.namedChildren) visitStatement(sink, child, { ...scope, wrapper: scope.wrapper ?? node });
      return;
    case 'expression_statement':
      for (const child of node.namedChildren) if (child.type === 'internal_module') visitStatement(sink, child, scope);
      visitRequire(sink, node);
      return;
    case 'function_declaration':
    case 'generator_function_declaration':
    case 'function_signature': {
      const name = nameOf(node);
      if (!name) return;
      const body = field(node, 'body');
      sink.add({
        name,
        kind: 'function',
        range: scope.wrapper ?? node,
        decl: node,
        body,
        exported: scope.exported,
        parent: scope.parent,
        signature: prefixed(sink, node, body, scope),
      });
      if (body) visitNestedFunctions(sink, body, name);
      return;
    }
    case 'class_declaration':
    case 'abstract_class_declaration':
      addClass(sink, node, nameOf(node) ?? 'anonymous', scope);
      return;
    case 'interface_declaration':
    case 'type_alias_declaration':
    case 'enum_declaration': {
      const name = nameOf(node);
      if (!name) return;
      const kind: SymbolKind =
        node.type === 'interface_declaration' ? 'interface' : node.type === 'enum_declaration' ? 'enum' : 'type';
      const body = kind === 'type' ? null : field(node, 'body');
      sink.add({
        name,
        kind,
        range: scope.wrapper ?? node,
        decl: node,
        body,
        exported: scope.exported,
        parent: scope.parent,
        signature: prefixed(sink, node, body, scope),
      });
      if (kind === 'interface' && body) visitMembers(sink, body, name);
      return;
    }
    case 'module':
    case 'internal_module': {
      const name = nameOf(node)?.replace(/^['"]|['"]$/g, '');
      if (!name) return;
      const body = field(node, 'body');
      sink.add({
        name,
        kind: node.type === 'module' ? 'module' : 'namespace',
        range: scope.wrapper ?? node,
        decl: node,
        body,
        exported: scope.exported,
        parent: scope.parent,
        signature: prefixed(sink, node, body, scope),
      });
      if (body) for (const child of body.namedChildren) visitStatement(sink, child, { exported: false, parent: name });
      return;
    }
    case 'lexical_declaration':
    case 'variable_declaration':
      addVariables(sink, node, scope);
      return;
    default:
      return;
  }
}

function prefixed(sink: SymbolSink, node: SyntaxNode, body: SyntaxNode | null | undefined, scope: Scope): string {
  const start = scope.wrapper && scope.wrapper.type === 'export_statement' ? scope.wrapper : node;
  let from = start.startIndex;
  for (const child of start.children) {
    if (child.type !== 'decorator' && child.type !== 'comment') {
      from = child.startIndex;
      break;
    }
  }
  let to = body ? body.startIndex : node.endIndex;
  if (!body) {
    const nl = sink.source.indexOf('\n', from);
    if (nl !== -1 && nl < to) to = nl;
  }
  const text = sink.source
    .slice(from, to)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s*[{;]\s*$/, '');
  return text.length > 240 ? text.slice(0, 239) + '…' : text;
}

function addClass(sink: SymbolSink, node: SyntaxNode, name: string, scope: Scope): void {
  const body = field(node, 'body');
  sink.add({
    name,
    kind: 'class',
    range: scope.wrapper ?? node,
    decl: node,
    body,
    exported: scope.exported,
    parent: scope.parent,
    signature: prefixed(sink, node, body, scope),
  });
  if (body) visitMembers(sink, body, name);
}

function visitMembers(sink: SymbolSink, body: SyntaxNode, owner: string): void {
  for (const member of body.namedChildren) {
    let kind: SymbolKind | undefined;
    if (
      member.type === 'method_definition' ||
      member.type === 'method_signature' ||
      member.type === 'abstract_method_signature'
    )
      kind = 'method';
    else if (
      member.type === 'public_field_definition' ||
      member.type === 'field_definition' ||
      member.type === 'property_signature'
    )
      kind = 'property';
    if (!kind) continue;
    const name = nameOf(member) ?? nameOf(member, 'property');
    if (!name) continue;
    if (kind === 'method' && name === 'constructor') kind = 'constructor';
    const value = field(member, 'value');
    if (kind === 'property' && value && FUNCTION_VALUES.has(value.type)) kind = 'method';
    const mbody = field(member, 'body') ?? (value && FUNCTION_VALUES.has(value.type) ? field(value, 'body') : null);
    const first = withLeadingDecorators(member, DECORATORS);
    const isPrivate = /^(private|protected)\b/.test(member.text) || name.startsWith('#');
    sink.add({
      name,
      kind,
      range: member,
      firstNode: first,
      decl: member,
      body: mbody,
      exported: !isPrivate,
      parent: owner,
    });
  }
}

function addVariables(sink: SymbolSink, node: SyntaxNode, scope: Scope): void {
  const isConst = node.children[0]?.text === 'const';
  for (const declarator of node.namedChildren) {
    if (declarator.type !== 'variable_declarator') continue;
    const nameNode = field(declarator, 'name');
    if (nameNode?.type !== 'identifier') continue;
    const value = field(declarator, 'value');
    const isFn = !!value && FUNCTION_VALUES.has(value.type);
    if (value && CLASS_VALUES.has(value.type)) {
      addClass(sink, value, nameNode.text, { ...scope, wrapper: scope.wrapper ?? node });
      continue;
    }
    const body = isFn ? field(value, 'body') : null;
    const kind: SymbolKind = isFn ? 'function' : isConst ? 'constant' : 'variable';
    sink.add({
      name: nameNode.text,
      kind,
      range: scope.wrapper ?? node,
      decl: node,
      body: body?.type === 'statement_block' ? body : null,
      exported: scope.exported,
      parent: scope.parent,
      signature: prefixed(sink, node, body?.type === 'statement_block' ? body : null, scope),
    });
    if (value?.type === 'call_expression') visitRequire(sink, value);
    if (body && body.type === 'statement_block') visitNestedFunctions(sink, body, nameNode.text);
  }
}

/** Nested function declarations (one level of statements) inside a function body. */
function visitNestedFunctions(sink: SymbolSink, body: SyntaxNode, owner: string): void {
  for (const stmt of body.namedChildren) {
    if (stmt.type === 'function_declaration' || stmt.type === 'generator_function_declaration') {
      visitStatement(sink, stmt, { exported: false, parent: owner });
    } else if (stmt.type === 'lexical_declaration') {
      for (const d of stmt.namedChildren) {
        const v = d.type === 'variable_declarator' ? field(d, 'value') : null;
        if (v && FUNCTION_VALUES.has(v.type)) {
          addVariables(sink, stmt, { exported: false, parent: owner });
          break;
        }
      }
    }
  }
}

/** CommonJS `require('x')` at statement level counts as an import. */
function visitRequire(sink: SymbolSink, node: SyntaxNode): void {
  for (const call of node.descendantsOfType('call_expression')) {
    const fn = field(call, 'function');
    const arg = field(call, 'arguments')?.namedChildren[0];
    if (fn?.text === 'require' && arg?.type === 'string') sink.addImport(arg.text);
  }
}
