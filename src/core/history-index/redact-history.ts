// Owns redaction of a parsed history before anything is derived from it: markers, segments, the text
// sent to a summarizing model and the summaries all see `[REDACTED:<kind>]`, never the secret. A Puffin
// file is read as it is, and a store ingested with --no-redact keeps its secrets: both pass here.
import { redactText } from '../../shared/redact/index.js';
import type { ParsedHistory } from './types.js';

/** Redacts the history's texts in place; returns the number of secrets replaced. */
export function redactHistory(history: ParsedHistory): number {
  let count = 0;
  const redact = (text: string): string => {
    const result = redactText(text);
    count += result.findings.length;
    return result.text;
  };
  for (const prompts of history.branches.values()) {
    for (const prompt of prompts) {
      prompt.content = redact(prompt.content);
      if (prompt.title !== undefined) prompt.title = redact(prompt.title);
      if (prompt.response) prompt.response.content = redact(prompt.response.content);
    }
  }
  for (const [branch, name] of history.branchNames) history.branchNames.set(branch, redact(name));
  return count;
}
