import { describe, expect, it } from 'vitest';
import { camelParts, camelTail, ftsParts, spaceJsonEscapes, toFtsText } from './fts-text.js';

describe('FTS text preparation', () => {
  it('indexes the paths and identifiers of a tool output past its clip, once each', () => {
    const head = 'log line\n'.repeat(4000);
    const rest = 'cat src/deep/Renfrew.md; parseDeepThing failed in my_module at 1.2.3 and src/deep/Renfrew.md again';
    const parts = ftsParts(head + rest, head.length);
    expect(parts.body).toBe(head);
    expect(parts.tail).toBe('src/deep/Renfrew.md . parseDeepThing . my_module');
    expect(ftsParts('short text', 100).tail).toBe('');
  });

  it('spaces CJK characters so that two of them match as a phrase', () => {
    expect(toFtsText('数据库迁移')).toBe(' 数  据  库  迁  移 ');
  });

  it('appends the sub-words of camelCase identifiers after the text, keeping the text intact', () => {
    expect(camelParts('parseSessionFile')).toEqual(['parse', 'Session', 'File']);
    expect(camelParts('getHTTPResponse')).toEqual(['get', 'HTTP', 'Response']);
    expect(camelTail('call parseSessionFile then parseSessionFile, snake_case stays')).toBe('parse Session File');
    expect(toFtsText('use getHTTPResponse here')).toBe('use getHTTPResponse here\nget HTTP Response');
    expect(toFtsText('no identifiers here')).toBe('no identifiers here');
  });

  it('takes whole ASCII words that start with a letter and have a hump after their first character', () => {
    expect(camelTail('iPhone eDP 3dModel foo_barBaz fooBar_x a.readFileSync(x)')).toBe('read File Sync');
    expect(camelTail('eDpFoo')).toBe('e Dp Foo');
    expect(camelTail('\\nUpdate the file')).toBe('');
    expect(camelTail('éparseFile XMLHttpRequest parseFile')).toBe('parse File . XML Http Request');
    expect(camelTail(Array.from({ length: 2500 }, (_, i) => `w${i}X`).join(' ')).split(' . ')).toHaveLength(2000);
  });

  it('spaces out JSON escapes in a tool input so the next word stands alone; escaped backslashes stay', () => {
    const json = JSON.stringify({ content: 'a\nimport x\tthen\u0007bell', path: 'C:\\new' });
    expect(spaceJsonEscapes(json)).toBe('{"content":"a import x then bell","path":"C:\\\\new"}');
    expect(spaceJsonEscapes('no escapes')).toBe('no escapes');
    expect(ftsParts(JSON.stringify({ c: 'x\nparseFile' }), undefined, true)).toEqual({
      body: '{"c":"x parseFile"}',
      tail: 'parse File',
    });
    expect(ftsParts(JSON.stringify({ c: 'x\nparseFile' })).body).toBeNull();
  });

  it('finds exactly the words of the whole-word regex it replaced, on random text', () => {
    const OLD = /\b[A-Za-z][A-Za-z0-9]*?[a-z0-9][A-Z][A-Za-z0-9]*\b/g;
    const reference = (text: string): string => {
      const words = new Set<string>();
      for (const m of text.matchAll(OLD)) {
        words.add(m[0]);
        if (words.size >= 2000) break;
      }
      return [...words].map((w) => camelParts(w).join(' ')).join(' . ');
    };
    const alphabet = 'aAbBzZ09_ .-\\é数xYqQ';
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 3000; i++) {
      const text = Array.from(
        { length: 1 + Math.floor(random() * 40) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
      expect(camelTail(text), JSON.stringify(text)).toBe(reference(text));
    }
  });
});
