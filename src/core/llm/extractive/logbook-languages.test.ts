// Offline logbook events in any language: a plain decision and a fixed bug in Chinese, Japanese, Korean
// and Spanish sessions each become events, kept in the session's language.
import { describe, expect, it } from 'vitest';
import { extractLogbookEvents, type LogbookChunkMessage, type LogbookEvent } from '../index.js';

const events = (messages: Array<Omit<LogbookChunkMessage, 'id' | 'timestamp'>>): LogbookEvent[] =>
  extractLogbookEvents({
    conversationId: 'c1',
    messages: messages.map((m, i) => ({ ...m, id: String(i + 1), timestamp: `2026-03-01T10:${10 + i}:00.000Z` })),
    existingEvents: [],
  }).events;

const pushFailure = (why: string, done: string): Array<Omit<LogbookChunkMessage, 'id' | 'timestamp'>> => [
  { role: 'assistant', text: '→ Bash: git push origin main' },
  {
    role: 'tool',
    text: '← Bash FAILED: error: insufficient permission for adding an object to repository database .git/objects',
    failed: true,
  },
  { role: 'assistant', text: `${why}\n→ Bash: sudo chown -R me .git` },
  { role: 'tool', text: '← Bash: ' },
  { role: 'assistant', text: `→ Bash: git push origin main\n${done}` },
  { role: 'tool', text: '← Bash: To github.com:me/app.git' },
];

describe('extractive logbook events in any language', () => {
  it.each([
    [
      'Chinese',
      '原因是 `.git/HEAD` 的所有者是 root，所以推送失败。',
      '已修复，推送成功了。',
      '以后我们决定统一用 pnpm 管理依赖，不再使用 npm。',
      'pnpm',
    ],
    [
      'Japanese',
      '原因は `.git/HEAD` の所有者が root だったことです。',
      '修正しました。',
      '今後は設定を環境変数で管理することに決めました。',
      '環境変数',
    ],
    [
      'Korean',
      '원인은 `.git/HEAD` 소유자가 root였기 때문입니다.',
      '수정했습니다.',
      '앞으로 배포는 GitHub Actions로 하기로 결정했습니다.',
      'GitHub Actions',
    ],
    [
      'Spanish',
      'El problema era que `.git/HEAD` pertenecía a root.',
      'Ya funciona el push.',
      'Decidimos usar PostgreSQL en lugar de MySQL porque necesitamos JSONB.',
      'PostgreSQL',
    ],
  ])('%s: a fixed bug and a plain decision', (_language, why, done, decision, word) => {
    const found = events([...pushFailure(why, done), { role: 'user', text: decision }]);
    const bug = found.find((e) => e.type === 'bug');
    expect(bug?.resolution).toBe(why.replace(/\n.*$/, ''));
    const chosen = found.find((e) => e.type === 'decision');
    expect(chosen?.content).toBe(decision);
    expect(chosen?.content).toContain(word);
  });

  it('splits sentences without spaces and skips narration in each language', () => {
    const found = events([
      { role: 'assistant', text: '让我先看看配置文件。我们决定把缓存改用 Redis。' },
      { role: 'assistant', text: 'まず設定を確認します。' },
      { role: 'assistant', text: '먼저 로그를 확인해 보겠습니다.' },
      { role: 'assistant', text: 'Voy a revisar el archivo de configuración ahora mismo.' },
    ]);
    expect(found.map((e) => e.content)).toEqual(['我们决定把缓存改用 Redis。']);
  });
});
