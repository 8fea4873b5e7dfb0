import { describe, expect, it } from 'vitest';
import { camelParts, camelTail, ftsParts, spaceJsonEscapes, toFtsText } from './fts-text.js';

describe('FTS text preparation', () => {
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
    expect(ftsParts(JSON.stringify({ c: 'x\nparseFile' }), undefined, true)).toEqual({ body: '{"c":"x parseFile"}', tail: 'parse File' });
    expect(ftsParts(JSON.stringify({ c: 'x\nparseFile' })).body).toBeNull();
  });
});
