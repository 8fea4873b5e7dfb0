// Owns symbol extraction for Python syntax trees (classes, functions, methods, decorators, docstrings).
import type { SyntaxNode } from '../tree-sitter-runtime.js';
import { SymbolSink, anyComment, field, nameOf, type Extraction } from './common.js';

export function extractPython(root: SyntaxNode, source: string): Extraction {
  const sink = new SymbolSink(source, (t) => anyComment(t) && t.startsWith('#'));
  visitBlock(sink, root, undefined, 'module');
  return sink.result();
}

type Context = 'module' | 'class' | 'function';

function visitBlock(sink: SymbolSink, block: SyntaxNode, parent: string | undefined, context: Context): void {
  for (const node of block.namedChildren) {
    if (node.type === 'import_statement') {
      for (const name of node.namedChildren) sink.addImport((field(name, 'name') ?? name).text);
    } else if (node.type === 'import_from_statement') {
      const mod = field(node, 'module_name');
      if (mod) sink.addImport(mod.text);
    } else if (node.type === 'function_definition' || node.type === 'class_definition') {
      addDefinition(sink, node, node, parent, context);
    } else if (node.type === 'decorated_definition') {
      const def = field(node, 'definition');
      if (def) addDefinition(sink, node, def, parent, context);
    } else if (node.type === 'expression_statement' && context !== 'function') {
      const assign = node.namedChildren[0];
      const target = assign?.type === 'assignment' ? field(assign, 'left') : null;
      if (target?.type === 'identifier') {
        const name = target.text;
        const kind = context === 'class' ? 'property' : /^[A-Z][A-Z0-9_]*$/.test(name) ? 'constant' : 'variable';
        sink.add({ name, kind, range: node, exported: !name.startsWith('_'), parent });
      }
    } else if (context === 'module' && (node.type === 'if_statement' || node.type === 'try_statement')) {
      // Conditional definitions at module level (e.g. `if TYPE_CHECKING:`, try/except imports).
      for (const child of node.namedChildren) if (child.type === 'block') visitBlock(sink, child, parent, context);
    }
  }
}

function addDefinition(
  sink: SymbolSink,
  range: SyntaxNode,
  def: SyntaxNode,
  parent: string | undefined,
  context: Context,
): void {
  const name = nameOf(def);
  if (!name) return;
  const body = field(def, 'body');
  const isClass = def.type === 'class_definition';
  const kind = isClass ? 'class' : context === 'class' ? (name === '__init__' ? 'constructor' : 'method') : 'function';
  const exported = !name.startsWith('_') || (name.startsWith('__') && name.endsWith('__'));
  sink.add({
    name,
    kind,
    range,
    decl: def,
    body,
    exported: context === 'function' ? false : exported,
    parent,
    doc: docstring(body),
  });
  if (body) visitBlock(sink, body, name, isClass ? 'class' : 'function');
}

function docstring(body: SyntaxNode | null): string | undefined {
  const first = body?.namedChildren[0];
  const str = first?.type === 'expression_statement' ? first.namedChildren[0] : undefined;
  if (str?.type !== 'string') return undefined;
  const text = str.text.replace(/^[rRbBuU]*("""|'''|"|')/, '').replace(/("""|'''|"|')$/, '');
  const lines = text.split('\n');
  const indent = Math.min(
    ...lines
      .slice(1)
      .filter((l) => l.trim())
      .map((l) => l.length - l.trimStart().length),
    Infinity,
  );
  const dedented = [lines[0] ?? '', ...lines.slice(1).map((l) => (Number.isFinite(indent) ? l.slice(indent) : l))];
  return dedented.join('\n').trim() || undefined;
}
