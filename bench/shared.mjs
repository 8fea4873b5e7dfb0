// What several benchmarks share: the installed command they start, the search queries they time, and
// percentiles.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The installed command (bin/strata.cjs: the bundled CLI with its compile cache), as users start it. */
export const STRATA_BIN = join(dirname(fileURLToPath(import.meta.url)), '../bin/strata.cjs');

/** Queries over the corpus resampled from the Claude Code fixtures: rare and common words, phrases, OR. */
export const SEARCH_QUERIES = [
  'hypridle',
  'useState',
  'migration database',
  'screensaver timeout',
  'commit',
  '"udev rules"',
  'parseSession',
  'error OR failed',
];

/** Questions in plain words over the same corpus (timed apart: a question ranks sessions, not blocks). */
export const SEARCH_QUESTIONS = [
  'which session fixed the container crash loop?',
  'which session fixed the install script permission denied error?',
  'what did we decide about the screensaver timeout?',
  'how did we make mps work instead of cuda?',
  'where did we port the python project to rust?',
  'which session added coverage with cargo-llvm-cov?',
  'why did the prisma commit fail because of gitignore?',
  'how do we configure the lefthook pre-push hook?',
];

/** The question with its longest word's two middle letters swapped (a typo a question search corrects). */
export function withSwap(question) {
  const word = (question.match(/[A-Za-z]{5,}/g) ?? []).reduce((a, w) => (w.length > a.length ? w : a), '');
  const i = Math.floor(word.length / 2) - 1;
  return word ? question.replace(word, word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2)) : question;
}

/** The p-th percentile of samples (nearest rank). */
export const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
