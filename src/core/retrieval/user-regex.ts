// Owns running regular expressions the user types (`search -E`): a linear-time engine (RE2 semantics, via
// re2js), so no pattern, however it nests, can make a scan backtrack for ever. JavaScript syntax is
// translated; what needs backtracking (backreferences, lookahead) is refused as an invalid query.
import { RE2JS } from 're2js';
import { StrataError } from '../../shared/errors.js';

export interface UserRegex {
  /** True when the pattern matches anywhere in `text`. */
  test(text: string): boolean;
  /** Where the first match in `text` starts and how long it is (UTF-16 code units), if any. */
  firstMatch(text: string): { index: number; length: number } | undefined;
}

export function compileUserRegex(pattern: string, ignoreCase: boolean): UserRegex {
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(pattern), ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
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
