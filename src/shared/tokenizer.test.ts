import { describe, expect, it } from 'vitest';
import { countTokens, fitsWithoutCounting, releaseTokenizer, truncateToTokens } from './tokenizer.js';

describe('tokenizer', () => {
  it('counts the same after its tables are released and loaded again', () => {
    const text = '### Prompt a1b2c3 (2026-04-02T00:01:22Z)\nUser: refactor the parser, then ünïcödé ✓ 漢字';
    const before = countTokens(text);
    releaseTokenizer();
    releaseTokenizer();
    expect(countTokens(text)).toBe(before);
    expect(truncateToTokens(text, 5)).toBe(truncateToTokens(text, 5));
  });

  it('counts special-token text such as <|endoftext|> as plain text', () => {
    for (const special of ['<|endoftext|>', '<|im_start|>', '<|endofprompt|>']) {
      const text = `before ${special} after`;
      expect(countTokens(text)).toBeGreaterThan(3);
      expect(truncateToTokens(text, 100)).toBe(text);
      expect(truncateToTokens(text.repeat(50), 10).length).toBeGreaterThan(0);
    }
  });

  it('never counts more tokens than UTF-8 bytes, so the byte bound is safe', () => {
    for (const text of ['plain words here', 'ünïcödé ✓ 漢字', '{"a":[1,2,3]}\n\t', 'x'.repeat(500)]) {
      expect(countTokens(text)).toBeLessThanOrEqual(Buffer.byteLength(text));
    }
    expect(fitsWithoutCounting('abc', 3)).toBe(true);
    expect(fitsWithoutCounting('漢', 2)).toBe(false);
  });
});
