// Owns the words of strata's own prompt templates: when a history holds strata's prompts (its summary or
// logbook requests, sent through an agent), their words must never come back as a segment's topics.
import { LOGBOOK_PROMPT_TEMPLATE, SUMMARY_PROMPT_TEMPLATE } from '../prompts.js';
import { termsOf } from './text.js';

let terms: Set<string> | undefined;

/** True when a topic term is a word of strata's segment-summary or logbook prompt template. */
export function isTemplateTerm(term: string): boolean {
  terms ??= new Set(termsOf(`${SUMMARY_PROMPT_TEMPLATE}\n${LOGBOOK_PROMPT_TEMPLATE}`.replace(/\{[a-z_]+\}/g, ' ')));
  return terms.has(term);
}
