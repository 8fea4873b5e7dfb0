// Owns which of the agent's own decision sentences are logged: a decision stated as one, or a choice made
// with its reason or the option it replaced; never a proposal, an observation or the old state.
import { CHANGE_STATED } from './logbook-fixes.js';
import { isNonLatin } from './segments.js';

/** A decision stated as one ("we decided", "决定", "ことにし", "하기로"), not a change or a proposal. */
const DECIDED =
  /\b(?:decided|decide to|settled on|opted|chose|decid(?:imos|ido|í)|optamos|elegimos)\b|决定|決定|ことにし|に決め|로 결정|하기로|결정했/i;

/** A proposal or advice, not a choice made: "we should", "deberíamos", "应该", "べき", "해야". */
const PROPOSAL =
  /\b(?:should|could|would|suggest|recommend|deber[ií]amos|podr[ií]amos|recomiendo|sugiero)\b|应该|建议|べき|해야/i;

/**
 * An agent's decision worth logging: stated as one ("we decided"), a choice made with its reason, or one
 * naming the option it replaced (outside English only beside a change it states: "en lugar de" describes too).
 */
export function agentDecision(
  sentence: string,
  found: { type: string; rationale?: string | undefined; alternatives: readonly string[] },
): boolean {
  if (found.type !== 'decision') return false;
  if (DECIDED.test(sentence)) return true;
  if (PROPOSAL.test(sentence)) return false;
  if (found.rationale !== undefined) return true;
  return found.alternatives.length > 0 && (!isNonLatinOrIntl(sentence) || CHANGE_STATED.test(sentence));
}

/** Text outside English: CJK or Hangul, or Latin with the accents of Spanish and its neighbours. */
const isNonLatinOrIntl = (s: string): boolean => isNonLatin(s) || /[áéíóúñ¿¡]/i.test(s);
