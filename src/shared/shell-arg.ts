// Owns quoting one argument of a command strata prints for the user to run (`strata read <session> N`):
// a session id with a space (aider's `50be4cd66ad1:2025-09-22 12:04:00`) must stay one argument.

/** The argument as is when a shell reads it as one word, else in double quotes (bash, zsh, PowerShell, cmd). */
export function shellArg(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `"${value.replace(/(["\\$`])/g, '\\$1')}"`;
}
