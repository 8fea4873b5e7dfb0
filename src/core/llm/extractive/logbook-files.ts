// Owns what ties a failure to a file: the file an error names, whether an edited file is that one, and
// whether a shell command rewrote it (evidence that the command fixed the failure).

/** A file's extension: a host name (`example.co.za`) is not a file. */
const FILE_EXTENSION = new RegExp(
  String.raw`\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|tsx|jsx|json|ya?ml|toml|md|rb|go|rs|java|kt|c|h|cc|cpp|hpp|cs|php|` +
    'exs?|lua|nix|sql|html?|css|scss|vue|svelte|ini|cfg|conf|env|txt|xml|gradle|swift|lock)$',
  'i',
);

/** The first file path an error names (a known extension; a path inside a URL is not one), if any. */
export function fileNamed(error: string): string | undefined {
  for (const m of error.matchAll(/(?<![:\w/.-])[\w./~-]*[\w-]\.[a-z]{1,6}\b/gi))
    if (FILE_EXTENSION.test(m[0])) return m[0];
  return undefined;
}

/** Commands that only read, list or probe: naming a file, they do not change it. */
const READ_ONLY = new RegExp(
  String.raw`^(?:cd \S+ && )?(?:cat|head|tail|less|more|ls|grep|rg|file|stat|wc|diff|find|which|echo|curl|wget|` +
    String.raw`ping|host|nslookup|dig|git (?:diff|log|show|status)|sed -n)\b`,
);

/** True when a shell command names the file the error names and is not one that only reads or lists. */
export function rewrites(command: string, error: string): boolean {
  const file = fileNamed(error);
  const base = file?.split('/').pop() ?? '';
  if (base.length < 3 || !command.includes(base)) return false;
  // Running the named script again is a rerun, not a rewrite.
  const program = /^(?:cd \S+ && )?(?:(?:bash|sh|zsh|source|\.|python3?|node) )?(\S+)/.exec(command)?.[1] ?? '';
  if (program.endsWith(base)) return false;
  return !READ_ONLY.test(command);
}

/** True when an error text names the edited file (by its base name). */
export function namesFile(error: string, edited: string): boolean {
  const base = edited.split(/[/\\]/).pop() ?? '';
  return base.length >= 3 && error.includes(base);
}
