import { describe, expect, it } from 'vitest';
import { HistoryCorpus, maskIds, withoutRepeatedLines } from './history-corpus.js';

const TEMPLATE = 'Role: You are a Senior Full Stack Developer working on this project.';

describe('HistoryCorpus', () => {
  it('finds lines and sentences repeated in 3 or more turns and leaves them out of the summarized text', () => {
    const corpus = new HistoryCorpus();
    const turns = [
      `${TEMPLATE}\nAdd a dark mode toggle to the settings page.`,
      `${TEMPLATE}\nFix the login redirect loop after logout.`,
      `Intro line here. ${TEMPLATE}\nMigrate the todo store to SQLite.`,
      'Unrelated question about the build cache invalidation.',
    ];
    for (const t of turns) corpus.add(t);
    expect(corpus.turns).toBe(4);
    expect(corpus.isRepeated(TEMPLATE)).toBe(true);
    expect(corpus.isRepeated('Add a dark mode toggle to the settings page.')).toBe(false);
    expect(withoutRepeatedLines(turns[0]!, corpus)).toBe('Add a dark mode toggle to the settings page.');
    // Inside a longer line, the repeated sentence goes and the rest stays.
    expect(withoutRepeatedLines(`Intro line here. ${TEMPLATE}`, corpus)).toBe('Intro line here.');
    // A turn repeating a line counts once.
    const one = new HistoryCorpus();
    one.add(`${TEMPLATE}\n${TEMPLATE}\n${TEMPLATE}`);
    expect(one.isRepeated(TEMPLATE)).toBe(false);
  });

  it('matches copies that differ in Markdown marks, bullets or closing punctuation, and cut-off copies', () => {
    const corpus = new HistoryCorpus();
    const sentence = "Since you haven't shared any files that I can edit yet, I won't be able to provide any blocks";
    corpus.add(`I understand. ${sentence.replace('provide any blocks', 'provide any *SEARCH/REPLACE blocks*')}.`);
    corpus.add(`- ${sentence}`);
    corpus.add(`${sentence}. Let me know when you have added files.`);
    expect(corpus.isRepeated(`**${sentence}**`)).toBe(true);
    expect(corpus.isRepeated(sentence.slice(0, 70))).toBe(true);
    expect(corpus.isRepeated('Let me know when you have added files.')).toBe(false);
  });

  it('counts term document frequency per turn and gives specific terms a higher idf', () => {
    const corpus = new HistoryCorpus();
    corpus.add('implementation of the sqlite migration');
    corpus.add('implementation of the dark mode');
    corpus.add('implementation of the login redirect');
    expect(corpus.documentFrequency('implementation')).toBe(3);
    expect(corpus.documentFrequency('sqlite')).toBe(1);
    expect(corpus.idf('sqlite')).toBeGreaterThan(corpus.idf('implementation'));
  });

  it('masks UUIDs and long hex ids', () => {
    expect(maskIds('Prompt da81eb36-1c2d-4e5f-8a9b-0123456789ab done, commit 3f2a9c81d0e4b7 ok, year 2026')).toBe(
      'Prompt  done, commit  ok, year 2026',
    );
  });
});
