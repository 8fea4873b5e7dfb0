// A context pack built from docs holding secrets holds none: not in its JSON, not in context.db.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeContextPack } from './write-pack.js';

const GITHUB = 'ghp_' + 'Zq8r2LmX0vB7nK4wT1yU6iO3pA9sD5fG7hJ2';
const PASSWORD = 'Tr0ub4dor&3xyz';
const KEY_LINE = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'strata-pack-redact-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('context pack redaction', () => {
  it('redacts secrets in chunk texts, titles, previews and the digest, and keeps line numbers', () => {
    mkdirSync(join(root, 'seg'), { recursive: true });
    const doc = [
      '# Deploy',
      '',
      `Push with ${GITHUB} from the CI box.`,
      '',
      `## Token ${GITHUB}`,
      '',
      'Set the cache password:',
      '',
      '```sh',
      `export REDIS_PASS=${PASSWORD}`,
      '```',
      '',
      '## Key',
      '',
      '-----BEGIN PRIVATE KEY-----',
      KEY_LINE,
      KEY_LINE,
      '-----END PRIVATE KEY-----',
      '',
      '## After',
      '',
      'The end.',
      '',
    ].join('\n');
    writeFileSync(join(root, 'seg', 'deploy.md'), doc);
    const result = writeContextPack({ repoRoot: root, segment: 'seg' });
    const files = readdirSync(join(root, 'seg', '_ctx')).map((f) => readFileSync(join(root, 'seg', '_ctx', f)));
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const bytes of files) {
      for (const secret of [GITHUB, PASSWORD, KEY_LINE])
        expect(bytes.includes(Buffer.from(secret)), secret).toBe(false);
    }
    const chunks = result.pack.chunks;
    expect(chunks.some((c) => c.text.includes('[REDACTED:github-token]'))).toBe(true);
    expect(chunks.some((c) => c.title_path.some((t) => t.includes('[REDACTED:github-token]')))).toBe(true);
    const after = chunks.find((c) => c.title_path.at(-1) === 'After')!;
    expect(after.start_line).toBe(doc.split('\n').indexOf('## After') + 1);
  });
});
