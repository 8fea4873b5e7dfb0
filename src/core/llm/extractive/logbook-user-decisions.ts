// Owns the choices a user states in their own turns ("use X", "one Start button", "Xを使います",
// "X로 해줘", "usa X"), in the five languages: the user's word settles a choice, unlike an agent's plan.
import { CONCRETE } from './logbook-cues.js';
import { isNonLatin } from './segments.js';

/** A choice stated by the user: a tool, a form or a rule the work must follow. */
export const USER_CHOICE = new RegExp(
  [
    String.raw`^(?:please\s+)?(?:use|always use|keep using|switch to|stick (?:with|to)|go with)\s+\S`,
    // A naming or format rule: "PR titles follow this pattern \"…\"", "branches should look like \"feat/…\"".
    String.raw`\b(?:follows? (?:this|the following) (?:pattern|format|convention|naming)|(?:should|must) ` +
      String.raw`(?:look like|be named|follow))\b`,
    String.raw`\b(?:only one|just one|a single) [\w-]+(?: [\w-]+)? ` +
      String.raw`(?:button|page|file|table|screen|command|endpoint)\b`,
    '^(?:请|請)?(?:使用|采用|採用|改用|统一使用|統一使用)\\s*\\S|(?:统一|統一)(?:为|為|用)',
    '(?:を使う|を使用する|を使って|とします|にします|で統一)[。.]?$',
    '(?:을|를) (?:사용해|써 ?줘|쓰자|사용하자|사용해 ?주세요)|(?:으로|로) (?:해 ?줘|해 ?주세요|하자|합시다|통일)',
    String.raw`^(?:usa|usad|utiliza|usemos|usar)\s+\S|\b(?:quiero|prefiero) (?:usar|que (?:sea|use|haya))\b|` +
      String.raw`\b(?:un solo|una sola|solo un|solo una) \p{L}+`,
  ].join('|'),
  'iu',
);

/** A request to look, explain or fix something: the user asks, nothing is chosen. */
const ASKING =
  /\b(?:explain|why|how|what|check|look at|find|analy[sz]e|review)\b|[?？]|教えて|説明|原因|왜|설명|por qué|explica/i;

/** Usage text a program printed ("Use /help <question> for help"), pasted by the user: not their choice. */
const USAGE_TEXT = /<[a-z][\w-]*>|\b(?:usage|--help)\b/i;

/** True when a sentence from the user's own turn states a choice of something it names. */
export function userChoice(sentence: string): boolean {
  if (!USER_CHOICE.test(sentence) || ASKING.test(sentence) || USAGE_TEXT.test(sentence)) return false;
  // "use the project conventions" names nothing: a choice names code, a file or a proper name.
  return isNonLatin(sentence) || CONCRETE.test(sentence) || /\s[A-Z][\w.-]/.test(sentence);
}

/** A plan the user approved and handed over ("Implement the following plan:"): the user's own decisions. */
export function approvedPlan(text: string): boolean {
  return /^\s*implement the following plan\s*:/i.test(text);
}
