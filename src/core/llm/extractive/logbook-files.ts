// Owns what ties a failure to a file: the file an error names, whether an edited file is that one, and
// whether a shell command rewrote it (evidence that the command fixed the failure).

/** The first file path an error names (with an extension), if any. */
export function fileNamed(error: string): string | undefined {
  return /[\w./~-]*[\w-]\.[a-z]{1,5}\b/i.exec(error)?.[0];
}

const READ_ONLY =
  /^(?:cd \S+ && )?(?:cat|head|tail|less|more|ls|grep|rg|file|stat|wc|diff|git (?:diff|log|show|status)|sed -n)\b/;

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
