// Owns JSON text produced piece by piece: the same bytes as JSON.stringify(value, null, indent), but the
// top two levels of objects and arrays are walked here, so a large document never exists as one string.

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (value === null || typeof value !== 'object') return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  return Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype;
}

function* pieces(value: unknown, indent: string, depth: number, walkDepth: number): Generator<string> {
  const pad = indent.repeat(depth);
  if (depth >= walkDepth || !isPlainContainer(value)) {
    // JSON text never holds a raw newline inside a string, so every newline starts an indented line.
    const text = JSON.stringify(value, null, indent);
    yield pad === '' ? text : text.replaceAll('\n', `\n${pad}`);
    return;
  }
  const inner = pad + indent;
  if (Array.isArray(value)) {
    if (value.length === 0) return yield '[]';
    yield '[';
    for (let i = 0; i < value.length; i++) {
      yield `${i === 0 ? '' : ','}\n${inner}`;
      const item = value[i];
      const kind = typeof item;
      if (item === undefined || kind === 'function' || kind === 'symbol') yield 'null';
      else yield* pieces(item, indent, depth + 1, walkDepth);
    }
    return yield `\n${pad}]`;
  }
  let first = true;
  for (const key of Object.keys(value)) {
    const item = value[key];
    const kind = typeof item;
    if (item === undefined || kind === 'function' || kind === 'symbol') continue;
    yield `${first ? '{' : ','}\n${inner}${JSON.stringify(key)}: `;
    first = false;
    yield* pieces(item, indent, depth + 1, walkDepth);
  }
  yield first ? '{}' : `\n${pad}}`;
}

/** JSON.stringify(value, null, indent) as a sequence of strings (joined, the same text). */
export function* jsonChunks(value: unknown, indent = 1, walkDepth = 2): Generator<string> {
  yield* pieces(value, ' '.repeat(indent), 0, walkDepth);
}
