// Owns running regular expressions the user types (`search -E`): a linear-time engine (RE2 semantics, via
// re2js), so no pattern, however it nests, can make a scan backtrack for ever. JavaScript syntax is
// translated; what needs backtracking (backreferences, lookahead) is refused as an invalid query.
import { createRequire } from 'node:module';
import type { RE2JS as RE2JSClass } from 're2js';
import { StrataError } from '../../shared/errors.js';

type RE2JS = RE2JSClass;

/** The engine loads on the first -E query only: a search without -E does not pay its ~50 ms of start-up. */
let engine: typeof RE2JSClass | undefined;
function regexEngine(): typeof RE2JSClass {
  engine ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JSClass }).RE2JS;
  return engine;
}

export interface UserRegex {
  /** True when the pattern matches anywhere in `text`. */
  test(text: string): boolean;
  /** Where the first match in `text` starts and how long it is (UTF-16 code units), if any. */
  firstMatch(text: string): { index: number; length: number } | undefined;
}

export function compileUserRegex(pattern: string, ignoreCase: boolean): UserRegex {
  const RE2 = regexEngine();
  let re: RE2JS;
  try {
    re = RE2.compile(RE2.translateRegExp(pattern), ignoreCase ? RE2.CASE_INSENSITIVE : 0);
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    throw new StrataError(
      'INVALID_QUERY',
      `invalid regular expression: ${reason} (regexes run in linear time: backreferences and lookahead are not ` +
        `supported)`,
    );
  }
  return {
    test: (text) => re.test(text),
    firstMatch(text) {
      const m = re.matcher(text);
      return m.find() ? { index: m.start(), length: m.end() - m.start() } : undefined;
    },
  };
}

/** A JavaScript RegExp matching exactly `text` (to point a snippet at a match the user's pattern found). */
export function literalRegExp(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') || '(?:)', 'g');
}
