// Owns the extractive pipeline's text handling: splitting a segment into messages and prose sentences
// (code fences, tool output and tables set aside), and turning sentences into weighted terms.

export interface Sentence {
  /** Position in the segment's sentence list. */
  index: number;
  /** Index of the message (role block) it comes from. */
  message: number;
  /** Position of the sentence within its message. */
  offset: number;
  role: string;
  text: string;
  terms: string[];
}

interface SegmentMessage {
  role: string;
  text: string;
}

const ROLE_LINE = /^\s*(?:#{1,4}\s*)?(user|assistant|human|ai|system|tool|claude|model)\s*(?:\[[^\]\n]*\])?\s*:\s?/i;

/** Splits "user: …" / "assistant: …" rendered text into messages; text without role lines is one message. */
function splitMessages(content: string): SegmentMessage[] {
  const messages: SegmentMessage[] = [];
  let current: SegmentMessage | undefined;
  for (const line of content.replace(/\r\n?/g, '\n').split('\n')) {
    const match = ROLE_LINE.exec(line);
    if (match?.[1]) {
      current = { role: match[1].toLowerCase(), text: line.slice(match[0].length) };
      messages.push(current);
    } else if (current) {
      current.text += '\n' + line;
    } else {
      current = { role: 'text', text: line };
      messages.push(current);
    }
  }
  return messages.filter((m) => m.text.trim() !== '');
}

/** Removes fenced code blocks (returned separately) from prose. */
function separateCode(text: string): { prose: string; code: string[] } {
  const code: string[] = [];
  const prose = text.replace(/```[^\n]*\n([\s\S]*?)(?:```|$)/g, (_m, body: string) => {
    code.push(body);
    return '\n';
  });
  return { prose, code };
}

const NOISE_LINE = new RegExp(
  String.raw`^\s*(?:\[(?:tool|result|tool_result|tool_use|image|document|thinking)\b|\s*\d+→|[|+]-{2,}|` +
    String.raw`\|.*\|\s*$|<\/?[a-z-]+>\s*$|[-=_*]{3,}\s*$|[{}[\]]\s*,?\s*$)`,
  'i',
);
const PROTECTED = /\b(e\.g|i\.e|etc|vs|cf|approx|Mr|Dr|No)\./g;

/** Prose sentences of a text: one per line-ish unit, split further at sentence ends. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const rawLine of separateCode(text).prose.split('\n')) {
    if (NOISE_LINE.test(rawLine)) continue;
    const line = rawLine
      .replace(/^\s*(?:[-*+•]|\d+[.)])\s+/, '')
      .replace(/^#{1,6}\s+/, '')
      .replace(/\*\*|__/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (line === '') continue;
    const protectedLine = line.replace(PROTECTED, (m) => m.replace('.', '\u0000'));
    for (const piece of protectedLine.split(/(?<=[.!?])\s+(?=["'(`*A-Z0-9])/)) {
      const sentence = piece.replace(/\u0000/g, '.').trim();
      if (sentence) out.push(sentence);
    }
  }
  return out;
}

const STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between ' +
    'both but by can could did do does doing done down during each few for from further had has have having he her ' +
    'here hers him his how i if in into is it its itself just let lets me more most my no nor not now of off on ' +
    'once only or other our ours out over own same she should so some such than that the their them then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why ' +
    'will with would you your yours yes yeah okay ok sure right well really actually basically thing things ' +
    'something anything everything think going want wants need needs like get got make made see know look looks ' +
    'looking seems seem maybe might may must one two first also still even already way lot new use ' +
    "using used able good great perfect please thanks thank hey hi let's i'm i'll you're it's that's don't can't " +
    "won't isn't doesn't didn't we're we'll here's there's what's via per etc " +
    'clear change changes work works time point case step part kind sense idea instead rather exactly probably'
  ).split(/\s+/),
);

/** Content terms of a sentence: lowercase words of 3+ letters, stopwords removed, plurals folded. */
export function termsOf(sentence: string): string[] {
  const words = sentence.toLowerCase().match(/[a-z][a-z0-9'_-]*[a-z0-9]/g) ?? [];
  const terms: string[] = [];
  for (const raw of words) {
    const word = raw.replace(/'s$/, '');
    if (word.length < 3 || STOPWORDS.has(word) || /^\d/.test(word)) continue;
    terms.push(stem(word));
  }
  return terms;
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.length > 4 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** All prose sentences of a segment with their message positions and terms. */
export function segmentSentences(content: string): Sentence[] {
  const sentences: Sentence[] = [];
  splitMessages(content).forEach((message, messageIndex) => {
    splitSentences(message.text).forEach((text, offset) => {
      sentences.push({
        index: sentences.length,
        message: messageIndex,
        offset,
        role: message.role,
        text,
        terms: termsOf(text),
      });
    });
  });
  return sentences;
}

/** Shortens text to at most `max` characters at a word boundary, marking the cut with "…". */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:(-]+$/, '') + '…';
}
