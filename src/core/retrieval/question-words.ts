// Owns telling a question from a keyword query and the words of a question worth searching for: question
// and stop words (English; CJK particles and function characters) are dropped, a CJK run becomes its
// chunks between particles, and a chunk longer than two characters matches by any of its bigrams.
// Explicit syntax ("phrases", OR, -exclusions) and short keyword queries are never read as questions.
import { hasCjk } from '../../store/fts-text.js';
import { type CommonWord, isIdentifierLike, toMatch } from './fts-query.js';

const ENGLISH = `a about above after again against all also am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during
each either else ever few for from further get got had hadn't has hasn't have haven't having he her here hers herself
him himself his how i i'd i'll i'm i've if in into is isn't it it's its itself just let let's me might more most must
my myself no nor not now of off on once only or other our ours ourselves out over own please same shall she should
shouldn't so some such than that that's the their theirs them themselves then there there's these they this those
through to too under until up us very was wasn't we we'd we'll we're we've were weren't what what's when where which
while who whom whose why will with won't would wouldn't yes yet you you'd you'll you're you've your yours yourself
yourselves tell know like want wanted remind recall remember thing things something anything way ok okay
session sessions conversation conversations chat previous earlier mentioned`;

export const STOP_WORDS: ReadonlySet<string> = new Set(ENGLISH.split(/\s+/).filter(Boolean));

// Words a question is phrased with rather than about: how it counts and dates (how many, weeks ago, in
// total) and what it asks for (suggestions, thinking of trying). Searched, but worth WEAK_WEIGHT of a word.
const WEAK = `many much ago day days week weeks month months year years time times today yesterday tomorrow last
past next recent recently lately currently current soon total different couple several number order earliest latest
one two three four five six seven eight nine ten recommend recommends recommendation recommendations suggest
suggestion suggestions advice tip tips idea ideas help think thinking feel feeling sure good better best
interesting find noticed seems even reason try trying planning getting make making use using new another choose
go going take took need looking wondering maybe really lot still actually`;
const WEAK_WORDS: ReadonlySet<string> = new Set(WEAK.split(/\s+/).filter(Boolean));
/** What a weak word's evidence is worth beside a content word's. */
export const WEAK_WEIGHT = 0.3;

/** Words that open a question: with one of them (or a question mark) two words are already a question. */
const QUESTION_OPENERS = new Set(['how', 'what', 'when', 'where', 'which', 'who', 'why', 'did', 'does', 'do', 'can']);

/** Chinese and Japanese function words and particles, longest first (a run is cut at each). */
const CJK_STOPS = [
  '为什么',
  '怎么样',
  '是不是',
  '什么',
  '怎么',
  '如何',
  '哪个',
  '哪些',
  '我们',
  '你们',
  '他们',
  '这个',
  '那个',
  '一下',
  '可以',
  '之前',
  'です',
  'ます',
  'した',
  'ですか',
  'について',
  '的',
  '了',
  '是',
  '在',
  '吗',
  '呢',
  '吧',
  '啊',
  '我',
  '你',
  '他',
  '她',
  '它',
  '和',
  '与',
  '或',
  '把',
  '被',
  '给',
  '哪',
  '有',
  '个',
  '这',
  '那',
  '就',
  '都',
  '也',
  '还',
  '过',
  'の',
  'は',
  'が',
  'を',
  'に',
  'で',
  'と',
  'も',
  'か',
  'へ',
  'や',
  'ね',
  'よ',
].sort((a, b) => b.length - a.length);

/** Korean particles at the end of a word (캐시를 → 캐시), longest first. */
const KOREAN_PARTICLES = [
  '에서',
  '으로',
  '에게',
  '까지',
  '부터',
  '은',
  '는',
  '이',
  '가',
  '을',
  '를',
  '에',
  '의',
  '도',
  '로',
  '와',
  '과',
];

const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+/gu;
const HANGUL = /^[\uac00-\ud7af]+$/u;

function cutCjk(run: string): string[] {
  if (HANGUL.test(run)) {
    const particle = KOREAN_PARTICLES.find((p) => run.length > p.length && run.endsWith(p));
    return [particle ? run.slice(0, -particle.length) : run];
  }
  const chunks: string[] = [];
  let current = '';
  for (let i = 0; i < run.length; ) {
    const stop = CJK_STOPS.find((s) => run.startsWith(s, i));
    if (stop) {
      if (current) chunks.push(current);
      current = '';
      i += stop.length;
    } else {
      current += run[i];
      i++;
    }
  }
  if (current) chunks.push(current);
  return chunks.filter((c) => c.length >= 2 || HANGUL.test(c));
}

const quote = (text: string): string => `"${text.replace(/"/g, '""')}"`;
const spaced = (text: string): string => [...text].join(' ');

/** A CJK chunk: the exact run, or any of its bigrams when longer than two characters. */
function cjkWord(chunk: string): QuestionWord {
  const chars = [...chunk];
  if (chars.length <= 2) return { text: chunk, match: quote(spaced(chunk)), weight: 1 };
  const forms = [quote(spaced(chunk))];
  for (let i = 0; i + 1 < chars.length; i++) forms.push(quote(`${chars[i]} ${chars[i + 1]}`));
  return { text: chunk, match: `(${[...new Set(forms)].join(' OR ')})`, weight: 1 };
}

export interface QuestionWord {
  text: string;
  /** The word's FTS5 expression (as a keyword query would match it). */
  match: string;
  /** 1 for a content word, WEAK_WEIGHT for a word the question is phrased with. */
  weight: number;
}

/**
 * The words a question is searched by, or undefined when `query` reads as keywords: explicit syntax, one
 * word, or no stop word among at most three words. Each word appears once.
 */
export function questionWords(query: string, common?: CommonWord): QuestionWord[] | undefined {
  if (/"|(^|\s)-\S|(^|\s)OR(\s|$)/.test(query)) return undefined;
  const raw = query.split(/\s+/).filter(Boolean);
  const lower = raw.map((w) => w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''));
  const stops = lower.filter((w) => STOP_WORDS.has(w)).length;
  const asked = /[?？]\s*$/.test(query) || QUESTION_OPENERS.has(lower[0] ?? '');
  const cjk = hasCjk(query);
  if (!cjk && (raw.length < 2 || (stops === 0 && !asked) || (raw.length <= 3 && !asked))) return undefined;
  const words: QuestionWord[] = [];
  const seen = new Set<string>();
  const add = (w: QuestionWord) => {
    if (!seen.has(w.text)) seen.add(w.text) && words.push(w);
  };
  for (const [i, word] of raw.entries()) {
    const bare = lower[i]!;
    if (bare === '' || STOP_WORDS.has(bare)) continue;
    if (HYPHENATED.test(bare)) {
      add(compound(bare, common));
      continue;
    }
    if (!hasCjk(word)) {
      const text = isIdentifierLike(word) ? word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '') : bare;
      if (text.replace(/'s$/, '').length < 2) continue;
      const term = text.replace(/'s$/, '');
      const weight = WEAK_WORDS.has(term.toLowerCase()) ? WEAK_WEIGHT : 1;
      add({ text: term.toLowerCase(), match: toMatch({ kind: 'term', text: term, phrase: false }, common), weight });
      continue;
    }
    // Mixed runs (执行rebase): Latin parts are words of their own, CJK runs are cut at particles.
    let last = 0;
    for (const m of word.matchAll(CJK_RUN)) {
      latinWords(word.slice(last, m.index), common).forEach(add);
      cutCjk(m[0]).map(cjkWord).forEach(add);
      last = m.index + m[0].length;
    }
    latinWords(word.slice(last), common).forEach(add);
  }
  if (cjk && words.length < 2) return undefined;
  return words.length > 0 ? withoutCommonPhrasing(words, common) : undefined;
}

/**
 * A phrasing word whose exact form alone fills a ranked window (`common`) is not searched: its newest
 * matches are a sliver of the store and say nothing about which session is meant, and ranking them was
 * a fifth of a question's time on 19,195 sessions. Kept when it is the only word.
 */
function withoutCommonPhrasing(words: QuestionWord[], common?: CommonWord): QuestionWord[] {
  if (!common) return words;
  const kept = words.filter((w) => !(w.weight < 1 && w.match === quote(w.text) && common(w.match)));
  return kept.length > 0 ? kept : words;
}

/** Words joined by hyphens (art-related, get-together); not identifiers with digits, dots or slashes. */
const HYPHENATED = /^\p{L}+(?:-\p{L}+)+$/u;

/** A hyphenated compound matches as itself (ranking first) or by any of its words, each as typed alone. */
function compound(word: string, common?: CommonWord): QuestionWord {
  const forms = [toMatch({ kind: 'term', text: word, phrase: false }, common)];
  for (const part of latinWords(word, common)) forms.push(part.match);
  return { text: word, match: `(${forms.join(' OR ')})`, weight: 1 };
}

function latinWords(text: string, common?: CommonWord): QuestionWord[] {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? [])
    .map((w) => w.toLowerCase())
    .filter((w) => w.length >= 2 && !STOP_WORDS.has(w))
    .map((w) => ({
      text: w,
      match: toMatch({ kind: 'term', text: w, phrase: false }, common),
      weight: WEAK_WORDS.has(w) ? WEAK_WEIGHT : 1,
    }));
}
