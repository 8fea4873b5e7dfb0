// One-line renderings of a logbook event (`logbook show`, the hook's text, markdown): a rationale the
// content already states is not repeated, one it does not state is kept.
import { describe, expect, it } from 'vitest';
import { formatLogbook, showLine } from './format.js';
import type { LogbookDocument, TimelineEvent } from './types.js';

const event = (content: string, rationale?: string): TimelineEvent =>
  ({
    timestamp: '2025-06-06T10:00:00.000Z',
    type: 'bug',
    content,
    ...(rationale ? { rationale } : {}),
    source: { session: 'abcd1234', message: 2 },
  }) as TimelineEvent;

describe('one-line logbook renderings', () => {
  const repeated = event(
    'The error occurred because there was an extra closing parenthesis `)` after the test description.',
    'there was an extra  closing parenthesis `)` after the test description',
  );
  const added = event('We switched to pnpm.', 'installs were three times faster');

  it('show lines leave out a rationale the content already states', () => {
    expect(showLine(repeated)).not.toContain('(why:');
    expect(showLine(added)).toContain('(why: installs were three times faster)');
  });

  it('markdown lines do the same', () => {
    const doc = {
      workspace: '/w',
      generated_at: '2026-01-01T00:00:00.000Z',
      source_range: { from: '2025-06-06T00:00:00.000Z', to: '2025-06-06T00:00:00.000Z' },
      timeline: [repeated, added],
    } as unknown as LogbookDocument;
    const md = formatLogbook(doc, 'markdown');
    expect(md.match(/because/g)).toHaveLength(2);
    expect(md).toContain('— because installs were three times faster');
  });

  it('cites a session whose id holds a space (aider) as one quoted argument, runnable as printed', () => {
    const aider = { ...added, source: { session: '50be4cd66ad1:2025-09-22 12:04:00', message: 7 } } as TimelineEvent;
    expect(showLine(aider)).toContain('[strata read "50be4cd66ad1:2025-09-22 12:04:00" 7]');
    expect(showLine(added)).toContain('[strata read abcd1234 2]');
  });
});
