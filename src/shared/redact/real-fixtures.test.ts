// The redactor over every text of the real fixtures redacts exactly the reviewed findings (all of them
// credentials: analytics project tokens, a test user's password, a database URL password, signed-URL
// JWTs) and nothing else.
import { describe, expect, it } from 'vitest';
import { auditRedactions, fixtureTexts } from '../../../test/support/redaction-audit.js';

describe('redaction on the real fixtures', () => {
  const lines = auditRedactions(fixtureTexts());
  const MAVENS = 'claude-code/vps-system/projects/-home-ken-next-mavens-flow';

  it('redacts only the reviewed credentials', () => {
    const byKindAndFile: Record<string, number> = {};
    for (const l of lines) byKindAndFile[`${l.kind} ${l.file}`] = (byKindAndFile[`${l.kind} ${l.file}`] ?? 0) + 1;
    expect(byKindAndFile).toEqual({
      'env-secret aider/aider-repo/tests/fixtures/chat-history.md': 16,
      [`env-secret ${MAVENS}/eb3fff50-8602-4007-9d57-c59c2da9cc9f/subagents/agent-ad82874.jsonl`]: 1,
      'jwt opencode/hstry/session.md': 2,
      'url-password gemini/vibe-coding-comparison/tmp/ticketing-vc/chats/session-2026-04-25T08-23-e435870b.jsonl': 1,
    });
    for (const l of lines.filter((x) => x.kind === 'env-secret'))
      expect(l.context).toMatch(
        /project_(?:api_key|token)\s*=\s*["']«env-secret:(?:32|47)»["']|Password: `«env-secret:11»`/,
      );
  });

  it('never touches names that merely contain a keyword', () => {
    for (const l of lines) expect(l.context).not.toMatch(/(?:author|_tokens|max_tokens|Optional\[)«/);
  });
});
