// A history index built straight from a Puffin file (which no ingest redacted) carries no secret: not
// in its summaries, markers or anywhere else in the file, and the summarizer never sees one.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateHistoryIndex } from './index.js';
import { createExtractiveProvider } from '../llm/providers/extractive.js';
import { LlmRunner, type LlmProvider } from '../llm/index.js';
import { tempDir } from '../../../test/support/paths.js';
import { samplePrompts, writeHistory } from '../../../test/support/history-index-fixtures.js';

const GITHUB = 'ghp_' + 'Zq8r2LmX0vB7nK4wT1yU6iO3pA9sD5fG7hJ2';
const PASSWORD = 'Tr0ub4dor&3xyz';

function seeingProvider(): { provider: LlmProvider; prompts: string[] } {
  const inner = createExtractiveProvider();
  const prompts: string[] = [];
  const provider: LlmProvider = {
    name: inner.name,
    model: inner.model,
    networked: inner.networked,
    complete: (request, context) => {
      prompts.push(JSON.stringify(request));
      return inner.complete(request, context);
    },
  };
  return { provider, prompts };
}

describe('history index redaction', () => {
  it('redacts secrets of a Puffin file before markers, segments and summaries are made', async () => {
    const dir = tempDir();
    const prompts = samplePrompts(2, 3);
    prompts[0]!.content =
      `TODO: rotate the token ${GITHUB} after the deploy. Also export REDIS_PASS=${PASSWORD} on ` + `the host.`;
    prompts[1]!.response!.content = `Done: pushed with ${GITHUB}; the password is ${PASSWORD} until Friday.`;
    const history = writeHistory(join(dir, 'history.json'), { main: prompts });
    const out = join(dir, 'history.index.json');
    const seeing = seeingProvider();
    const result = await generateHistoryIndex({
      source: { kind: 'puffin-file', path: history },
      outputPath: out,
      runner: new LlmRunner({ provider: seeing.provider }),
    });
    expect(result.written).toBe(true);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain(GITHUB);
    expect(text).not.toContain(PASSWORD);
    expect(text).toContain('[REDACTED:github-token]');
    expect(seeing.prompts.length).toBeGreaterThan(0);
    for (const prompt of seeing.prompts) {
      expect(prompt).not.toContain(GITHUB);
      expect(prompt).not.toContain(PASSWORD);
    }
  });
});
