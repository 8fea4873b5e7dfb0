// Owns key-entity extraction for the extractive provider: file paths, code identifiers, shell commands
// and packages mentioned in a segment, ranked by frequency and kind, first mention breaking ties.

type EntityKind = 'path' | 'command' | 'package' | 'identifier';

export interface Entity {
  kind: EntityKind;
  value: string;
  count: number;
  first: number;
}

const EXT =
  'tsx?|jsx?|mjs|cjs|py|rs|go|java|kt|rb|php|cs|cpp|cc|c|h|hpp|swift|md|mdx|json|jsonl|ya?ml|toml|ini|sql|sh|' +
  'bash|zsh|css|scss|html|vue|svelte|lock|txt|pdf|csv|xml|gradle|dockerfile';
const PATH_RE = new RegExp(
  String.raw`(?:~|\.{1,2})?(?:/?[\w@.+-]+/)+[\w@.+-]+(?:\.(?:${EXT}))?\b|` +
    String.raw`\b[\w.-]+\.(?:${EXT})\b|(?<![\w.])\.env(?:\.\w+)?\b`,
  'gi',
);
const COMMANDS =
  'npm|npx|pnpm|yarn|bun|node|deno|tsc|vitest|jest|git|gh|python3?|pip3?|uv|poetry|cargo|rustc|go|make|docker|' +
  'docker-compose|kubectl|brew|apt|apt-get|curl|wget|claude|strata|sqlite3|psql|ls|cd|cat|grep|rg|sed|find|mkdir|' +
  'rm|mv|cp|chmod|ssh|playwright';
const COMMAND_RE = new RegExp(String.raw`(?:\x60|^\s*\$ |^\s*> )((?:${COMMANDS})(?: +[\w@./:=+-]+){0,4})`, 'gm');
const JSON_COMMAND_RE = /"command"\s*:\s*"((?:[^"\\]|\\.){1,200})"/g;
const INSTALL_RE = new RegExp(
  String.raw`\b(?:npm (?:install|i|add)|pnpm add|yarn add|bun add|pip3? install|uv add|poetry add|` +
    String.raw`cargo add|go get)\s+((?:[@\w./-]+\s*){1,5})`,
  'g',
);
const SCOPED_PKG_RE = /(?:^|[\s\x60"'(])(@[a-z0-9-]+\/[a-z0-9._-]+)/g;
const IMPORT_RE = /\bfrom\s+['"]([@\w][\w@./-]*)['"]|\brequire\(\s*['"]([@\w][\w@./-]*)['"]\s*\)/g;
const BACKTICK_RE = /\x60([^\x60\n]{2,80})\x60/g;
const IDENT_RE =
  /\b([a-z]+(?:[A-Z][a-z0-9]+)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b(\(\))?/g;

const KIND_WEIGHT: Record<EntityKind, number> = { path: 4, command: 3, package: 3, identifier: 1 };
const JSON_KEY_RE = /"[\w$-]+"\s*:/g;
const TOOL_PREFIX_RE = /\[tool [\w.-]+/g;
const URL_RE = /\bhttps?:\/\/\S+/g;

export function extractEntities(content: string): Entity[] {
  const found = new Map<string, Entity>();
  const add = (kind: EntityKind, raw: string, at: number): void => {
    const value = raw.trim().replace(/[.,;:)\]}'"\x60]+$/, '');
    if (value.length < 3 || value.length > 160) return;
    const key = `${kind}\u0000${value}`;
    const entity = found.get(key);
    if (entity) entity.count++;
    else found.set(key, { kind, value, count: 1, first: at });
  };
  // Blank URLs and JSON string escapes (\n inside tool inputs) so they do not glue onto names.
  const text = content.replace(URL_RE, (url) => ' '.repeat(url.length)).replace(/\\[nrt]/g, '  ');
  for (const m of text.matchAll(PATH_RE)) if (looksLikePath(m[0])) add('path', m[0], m.index);
  for (const m of text.matchAll(JSON_COMMAND_RE))
    add('command', unescapeJson(m[1]!).split(/\s*(?:&&|\||;)\s*/)[0]!, m.index);
  const outsideJsonCommands = text.replace(JSON_COMMAND_RE, (span) => ' '.repeat(span.length));
  for (const m of outsideJsonCommands.matchAll(COMMAND_RE)) add('command', m[1]!, m.index);
  for (const m of text.matchAll(INSTALL_RE))
    for (const pkg of m[1]!.split(/\s+/))
      if (/^[@a-z]/i.test(pkg) && !pkg.startsWith('-')) add('package', pkg, m.index);
  for (const m of text.matchAll(SCOPED_PKG_RE)) add('package', m[1]!, m.index);
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2]!;
    if (!spec.startsWith('.') && !spec.startsWith('node:')) add('package', spec, m.index);
  }
  for (const m of text.matchAll(BACKTICK_RE)) {
    const inner = m[1]!.trim();
    if (/^[A-Za-z_$][\w$.]*(?:\(\))?$/.test(inner) && /[A-Z_.(]/.test(inner.slice(1)))
      add('identifier', inner, m.index);
  }
  const prose = outsideJsonCommands
    .replace(JSON_KEY_RE, (k) => ' '.repeat(k.length))
    .replace(TOOL_PREFIX_RE, (k) => ' '.repeat(k.length));
  for (const m of prose.matchAll(IDENT_RE)) add('identifier', m[1]! + (m[2] ?? ''), m.index);
  return mergeDuplicates([...found.values()]);
}

function looksLikePath(value: string): boolean {
  if (!/[/.]/.test(value) || /^\d+(\.\d+)+$/.test(value)) return false; // versions like 1.2.3
  if (/\.\w{1,10}$/.test(value)) return true;
  return (
    /^(?:\/|~\/|\.{1,2}\/)/.test(value) || /^(?:src|lib|test|tests|docs|bin|dist|app|packages|scripts)\//.test(value)
  );
}

function unescapeJson(value: string): string {
  try {
    return JSON.parse(`"${value}"`) as string;
  } catch {
    return value;
  }
}

/** Drops a bare file name when a full path to it is also present, and identifiers that are paths. */
function mergeDuplicates(entities: Entity[]): Entity[] {
  const paths = entities.filter((e) => e.kind === 'path');
  return entities.filter((e) => {
    if (e.kind === 'path' && !e.value.includes('/')) {
      const longer = paths.find((p) => p !== e && p.value.endsWith('/' + e.value));
      if (longer) {
        longer.count += e.count;
        return false;
      }
    }
    if (e.kind === 'identifier' && paths.some((p) => p.value === e.value)) return false;
    return true;
  });
}

/** The top entities, best first: count × kind weight, earlier first mention on ties. */
export function rankEntities(entities: readonly Entity[], limit = 12): string[] {
  const seen = new Set<string>();
  return [...entities]
    .sort(
      (a, b) =>
        b.count * KIND_WEIGHT[b.kind] - a.count * KIND_WEIGHT[a.kind] ||
        a.first - b.first ||
        (a.value < b.value ? -1 : 1),
    )
    .filter((e) => (seen.has(e.value) ? false : (seen.add(e.value), true)))
    .slice(0, limit)
    .map((e) => e.value);
}
