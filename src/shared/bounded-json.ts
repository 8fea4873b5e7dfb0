// Owns JSON handling that no input can overflow: agent files may nest values thousands of levels deep,
// and V8's JSON.stringify, like any recursive walk, then throws "Maximum call stack size exceeded".

/** Deepest nesting a recursive walk over parsed JSON enters; deeper values are kept as their JSON text. */
export const MAX_JSON_DEPTH = 100;

type Frame =
  | { kind: 'array'; items: unknown[]; next: number }
  | { kind: 'object'; entries: [string, unknown][]; next: number };

function scalarJson(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  return undefined; // undefined, functions, symbols: left out like JSON.stringify does
}

/** JSON.stringify's output, computed with an explicit stack: any depth, no recursion. */
export function stringifyIteratively(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return scalarJson(value);
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = (v: object): void => {
    if (Array.isArray(v)) {
      out.push('[');
      stack.push({ kind: 'array', items: v, next: 0 });
    } else {
      out.push('{');
      stack.push({ kind: 'object', entries: Object.entries(v), next: 0 });
    }
  };
  open(value);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.kind === 'array') {
      if (frame.next >= frame.items.length) {
        out.push(']');
        stack.pop();
        continue;
      }
      if (frame.next > 0) out.push(',');
      const item = frame.items[frame.next++];
      if (typeof item === 'object' && item !== null) open(item);
      else out.push(scalarJson(item) ?? 'null');
    } else {
      let pushed = false;
      while (frame.next < frame.entries.length) {
        const [key, item] = frame.entries[frame.next++]!;
        const scalar = typeof item === 'object' && item !== null ? undefined : scalarJson(item);
        if (scalar === undefined && (typeof item !== 'object' || item === null)) continue;
        if (out[out.length - 1] !== '{') out.push(',');
        out.push(JSON.stringify(key), ':');
        if (scalar !== undefined) out.push(scalar);
        else {
          open(item as object);
          pushed = true;
          break;
        }
      }
      if (!pushed && frame.next >= frame.entries.length && stack[stack.length - 1] === frame) {
        out.push('}');
        stack.pop();
      }
    }
  }
  return out.join('');
}

/** JSON.stringify, falling back to the iterative serializer when the value is nested too deep for the stack. */
export function stringifyJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (error instanceof RangeError) return stringifyIteratively(value);
    throw error;
  }
}
