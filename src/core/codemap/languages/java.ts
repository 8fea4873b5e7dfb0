// Owns symbol extraction for Java syntax trees (classes, interfaces, enums, records, members, annotations).
import type { SymbolKind } from '../types.js';
import type { SyntaxNode } from '../tree-sitter-runtime.js';
import { SymbolSink, docCommentOnly, field, nameOf, type Extraction } from './common.js';

const TYPE_KINDS: Record<string, SymbolKind> = {
  class_declaration: 'class',
  interface_declaration: 'interface',
  enum_declaration: 'enum',
  record_declaration: 'record',
  annotation_type_declaration: 'interface',
};

export function extractJava(root: SyntaxNode, source: string): Extraction {
  const sink = new SymbolSink(source, docCommentOnly);
  for (const node of root.namedChildren) {
    if (node.type === 'import_declaration') {
      sink.addImport(
        node.text
          .replace(/^import\s+(static\s+)?/, '')
          .replace(/;\s*$/, '')
          .trim(),
      );
    } else if (TYPE_KINDS[node.type]) {
      addType(sink, node, undefined, false);
    }
  }
  return sink.result();
}

function modifiers(node: SyntaxNode): string {
  return node.namedChildren.find((c) => c.type === 'modifiers')?.text ?? '';
}

function addType(sink: SymbolSink, node: SyntaxNode, parent: string | undefined, inInterface: boolean): void {
  const name = nameOf(node);
  const kind = TYPE_KINDS[node.type];
  if (!name || !kind) return;
  const body = field(node, 'body');
  const mods = modifiers(node);
  sink.add({
    name,
    kind,
    range: node,
    body,
    exported: /\bpublic\b/.test(mods) || inInterface,
    parent,
    signature: signature(sink, node, body),
  });
  if (!body) return;
  const memberContainer = body.namedChildren.find((c) => c.type === 'enum_body_declarations') ?? body;
  for (const member of memberContainer.namedChildren) {
    if (TYPE_KINDS[member.type]) {
      addType(sink, member, name, kind === 'interface');
      continue;
    }
    const exported =
      /\bpublic\b/.test(modifiers(member)) || (kind === 'interface' && !/\bprivate\b/.test(modifiers(member)));
    if (
      member.type === 'method_declaration' ||
      member.type === 'constructor_declaration' ||
      member.type === 'compact_constructor_declaration'
    ) {
      const mname = nameOf(member) ?? name;
      const mbody = field(member, 'body');
      const mkind: SymbolKind = member.type === 'method_declaration' ? 'method' : 'constructor';
      sink.add({
        name: mname,
        kind: mkind,
        range: member,
        body: mbody,
        exported,
        parent: name,
        signature: signature(sink, member, mbody),
      });
    } else if (member.type === 'field_declaration' || member.type === 'constant_declaration') {
      for (const declarator of member.namedChildren.filter((c) => c.type === 'variable_declarator')) {
        const fname = nameOf(declarator);
        if (!fname) continue;
        const isConst = /\bstatic\b/.test(modifiers(member)) && /\bfinal\b/.test(modifiers(member));
        sink.add({
          name: fname,
          kind: isConst ? 'constant' : 'property',
          range: member,
          exported,
          parent: name,
          signature: signature(sink, member, null),
        });
      }
    }
  }
}

/** Declaration without annotations (they stay in the line range) and without the body. */
function signature(sink: SymbolSink, node: SyntaxNode, body: SyntaxNode | null): string {
  const mods = node.namedChildren.find((c) => c.type === 'modifiers');
  let from = node.startIndex;
  if (mods) {
    const keywords = mods.children.filter((c) => !c.type.endsWith('annotation'));
    from = keywords[0]?.startIndex ?? mods.endIndex;
  }
  const to = body ? body.startIndex : node.endIndex;
  const text = sink.source
    .slice(from, to)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s*[;{]\s*$/, '');
  return text.length > 240 ? text.slice(0, 239) + '…' : text;
}
