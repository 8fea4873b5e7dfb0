import { describe, expect, it } from 'vitest';
import { WEAK_WEIGHT, questionWords } from './question-words.js';

const texts = (q: string) => questionWords(q)?.map((w) => w.text);

describe('questionWords', () => {
  it('leaves keyword queries and explicit syntax to the block search', () => {
    for (const q of [
      'sqlite',
      'install script permission denied',
      'screensaver 10 minutes',
      '"udev rules" the cache',
    ]) {
      expect([q, texts(q)]).toEqual([q, undefined]);
    }
    expect(texts('cache OR the store')).toBeUndefined();
    expect(texts('what about the cache -redis')).toBeUndefined();
  });

  it('drops question and stop words, keeps each word once', () => {
    // Words about the history itself (session, conversation) are not evidence either.
    expect(texts('Which session fixed the container crash loop?')).toEqual(['fixed', 'container', 'crash', 'loop']);
    expect(texts('what did we decide about the cache and the cache size?')).toEqual(['decide', 'cache', 'size']);
    expect(texts("How long did I wait for my brother's visa?")).toEqual(['long', 'wait', 'brother', 'visa']);
  });

  it('drops a phrasing word that is common in the store, unless it is the only word', () => {
    const common = (exact: string) => exact === '"many"' || exact === '"time"' || exact === '"recipe"';
    const of = (q: string) => questionWords(q, common)?.map((w) => w.text);
    // "recipe" is common too, but a content word: it stays.
    expect(of('How many times did I bake the smoker recipe?')).toEqual(['times', 'bake', 'smoker', 'recipe']);
    expect(of('How many weeks ago?')).toEqual(['weeks', 'ago']);
    expect(of('what time?')).toEqual(['time']);
  });

  it('weighs the words a question is phrased with below its content words', () => {
    const weights = questionWords('How many weeks ago did you suggest a smoker recipe?')?.map((w) => [
      w.text,
      w.weight,
    ]);
    expect(weights).toEqual([
      ['many', WEAK_WEIGHT],
      ['weeks', WEAK_WEIGHT],
      ['ago', WEAK_WEIGHT],
      ['suggest', WEAK_WEIGHT],
      ['smoker', 1],
      ['recipe', 1],
    ]);
    expect(WEAK_WEIGHT).toBeLessThan(1);
  });

  it('matches a hyphenated compound as itself or by any of its words', () => {
    expect(questionWords('which art-related events did I attend?')?.[0]?.match).toBe(
      '("art related"* OR ("art" OR "art"*) OR ("related" OR "relat"*))',
    );
    // Identifiers keep their exact phrase.
    expect(questionWords('what changed in flow-install-global.sh?')?.[1]?.match).toBe('"flow install global sh"');
  });

  it('cuts CJK runs at particles and splits Latin words out of them', () => {
    expect(texts('我们怎么解决rebase的冲突')).toEqual(['解决', 'rebase', '冲突']);
    expect(texts('キャッシュの設定はどこ')).toEqual(['キャッシュ', '設定', 'どこ']);
    expect(texts('캐시를 수정한 세션')).toEqual(['캐시', '수정한', '세션']);
    // A chunk longer than two characters matches by any of its bigrams.
    expect(questionWords('修复缓存的问题')?.[0]?.match).toBe('("修 复 缓 存" OR "修 复" OR "复 缓" OR "缓 存")');
  });
});
