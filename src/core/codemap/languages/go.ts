// Owns symbol extraction for Go syntax trees (funcs, methods with receivers, types, consts, vars).
import type { SymbolKind } from '../types.js';
import type { SyntaxNode } from '../tree-sitter-runtime.js';
import { SymbolSink, anyComment, field, nameOf, type Extraction } from './common.js';

const isExported = (name: string): boolean => /^\p{Lu}/u.test(name);

export function extractGo(root: SyntaxNode, source: string): Extraction {
  const sink = new SymbolSink(source, anyComment);
  for (const node of root.namedChildren) {
    switch (node.type) {
      case 'import_declaration':
        for (const spec of node.descendantsOfType('import_spec')) {
          const path = field(spec, 'path');
          if (path) sink.addImport(path.text);
        }
        break;
      case 'function_declaration': {
        const name = nameOf(node);
        if (name)
          sink.add({ name, kind: 'function', range: node, body: field(node, 'body'), exported: isExported(name) });
        break;
      }
      case 'method_declaration': {
        const name = nameOf(node);
        const receiver = field(node, 'receiver');
        const recvType = receiver?.descendantsOfType('type_identifier')[0]?.text;
        if (name)
          sink.add({
            name,
            kind: 'method',
            range: node,
            body: field(node, 'body'),
            exported: isExported(name),
            parent: recvType,
          });
        break;
      }
      case 'type_declaration':
        for (const spec of node.namedChildren) {
          if (spec.type !== 'type_spec' && spec.type !== 'type_alias') continue;
          const name = nameOf(spec);
          if (!name) continue;
          const type = field(spec, 'type');
          const kind: SymbolKind =
            type?.type === 'struct_type' ? 'struct' : type?.type === 'interface_type' ? 'interface' : 'type';
          const single = node.namedChildren.length === 1;
          const body =
            kind === 'type' ? null : type ? (type.namedChildren.find((c) => c.type.endsWith('_list')) ?? null) : null;
          sink.add({
            name,
            kind,
            range: single ? node : spec,
            decl: single ? node : spec,
            body,
            exported: isExported(name),
            signature: single ? undefined : `type ${spec.text.split('\n')[0]?.replace(/\s*\{\s*$/, '')}`,
          });
          if (kind === 'interface' && type) addInterfaceMethods(sink, type, name);
        }
        break;
      case 'const_declaration':
      case 'var_declaration':
        for (const spec of node.namedChildren) {
          if (spec.type !== 'const_spec' && spec.type !== 'var_spec') continue;
          const single = node.namedChildren.length === 1;
          for (const id of spec.namedChildren.filter((c) => c.type === 'identifier')) {
            const kind: SymbolKind = node.type === 'const_declaration' ? 'constant' : 'variable';
            sink.add({ name: id.text, kind, range: single ? node : spec, exported: isExported(id.text) });
          }
        }
        break;
      default:
        break;
    }
  }
  return sink.result();
}

function addInterfaceMethods(sink: SymbolSink, iface: SyntaxNode, owner: string): void {
  for (const m of iface.descendantsOfType(['method_spec', 'method_elem'])) {
    const name = nameOf(m);
    if (name) sink.add({ name, kind: 'method', range: m, exported: isExported(name), parent: owner });
  }
}
