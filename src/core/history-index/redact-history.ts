// Owns redaction of a parsed history before anything is derived from it: markers, segments, the text
// sent to a summarizing model and the summaries all see `[REDACTED:<kind>]`, never the secret. A Puffin
// file is read as it is, and a store ingested with --no-redact keeps its secrets: both pass here.
import { redactText } from '../../shared/redact/index.js';
import type { ParsedHistory, ParsedPrompt } from './types.js';

/** Redacts one prompt's texts in place; returns the number of secrets replaced. */
export function redactPrompt(prompt: ParsedPrompt): number {
  let count = 0;
  const redact = (text: string): string => {
    const result = redactText(text);
    count += result.findings.length;
    return result.text;
  };
  prompt.content = redact(prompt.content);
  if (prompt.title !== undefined) prompt.title = redact(prompt.title);
  if (prompt.response) prompt.response.content = redact(prompt.response.content);
  return count;
}

/** Redacts the branch names in place (prompts are redacted one by one as they are read). */
export function redactBranchNames(history: ParsedHistory): number {
  let count = 0;
  for (const [branch, name] of history.branchNames) {
    const result = redactText(name);
    count += result.findings.length;
    history.branchNames.set(branch, result.text);
  }
  return count;
}

/** Redacts the history's texts in place; returns the number of secrets replaced. */
export function redactHistory(history: ParsedHistory): number {
  let count = redactBranchNames(history);
  for (const prompts of history.branches.values()) for (const prompt of prompts) count += redactPrompt(prompt);
  return count;
}
