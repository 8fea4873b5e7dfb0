import { describe, expect, it } from 'vitest';
import { createRedactor, rulesHinted } from './redact.js';

const redact = (text: string) => createRedactor().redact(text);

describe('env-style secrets (KEY=value)', () => {
  it('redacts the value wherever the keyword sits in the name, in any case', () => {
    expect(redact('export MY_API_KEY="abc123DEF456ghi"')).toBe('export MY_API_KEY="[REDACTED:env-secret]"');
    expect(redact('DATABASE_PASSWORD=hunter2Secret99')).toBe('DATABASE_PASSWORD=[REDACTED:env-secret]');
    expect(redact('const apiKey: "Zx81kq02LmNbv7"')).toBe('const apiKey: "[REDACTED:env-secret]"');
    expect(redact('AUTH_TOKEN_SECRET = 9f8e7d6c5b4a3210')).toBe('AUTH_TOKEN_SECRET = [REDACTED:env-secret]');
  });
  it('finds them in JSON text too: escaped quotes (a tool call\'s input) and quoted keys', () => {
    const call = JSON.stringify({ command: 'export OPENROUTER_API_KEY="or_9f8e7d6c5b4a3210" && run' });
    expect(redact(call)).toBe(JSON.stringify({ command: 'export OPENROUTER_API_KEY="[REDACTED:env-secret]" && run' }));
    expect(redact('{"api_key": "Zx81kq02LmNbv7", "name": "demo"}')).toBe('{"api_key": "[REDACTED:env-secret]", "name": "demo"}');
    expect(redact(JSON.stringify({ content: '{"client_secret":"Q2w3E4r5T6y7U8"}' }))).not.toContain('Q2w3E4r5T6y7U8');
  });
  it('leaves code and plain words alone', () => {
    for (const text of ['TOKEN=process.env.GITHUB_TOKEN', 'AUTH_MODE=required', 'password: undefined', 'SECRET_NAME=PRODUCTION_DB', '{"token": "required", "auth": "none"}']) {
      expect(redact(text)).toBe(text);
    }
  });
});

describe('passwords in URLs', () => {
  it('redacts the password of any scheme, in any case, and leaves URLs without one alone', () => {
    expect(redact('see https://user:s3cretPw@host.com/x')).toBe('see https://user:[REDACTED:url-password]@host.com/x');
    expect(redact('POSTGRES://ADMIN:HUNTER22@DB:5432')).toBe('POSTGRES://ADMIN:[REDACTED:url-password]@DB:5432');
    expect(redact('{"url":"git+ssh://git:tok3n99@github.com","b":"redis://u2:pw2x@cache"}')).toBe('{"url":"git+ssh://git:[REDACTED:url-password]@github.com","b":"redis://u2:[REDACTED:url-password]@cache"}');
    for (const text of ['https://host/path?a=b@c', 'mailto:me@example.org', 'ssh://git@github.com/x', '9abc://u:pwd1@h', 'https://a.b/c d:efgh@i']) expect(redact(text)).toBe(text);
  });
});

describe('rule hints (the one-pass pre-check)', () => {
  it('selects only the rules whose hints occur, in any case, anywhere in the text', () => {
    expect(rulesHinted('plain prose without anything')).toBe(0);
    expect(rulesHinted('x')).toBe(0);
    expect(rulesHinted('')).toBe(0);
    const one = rulesHinted('see https://example.org');
    expect(one).not.toBe(0);
    expect(one & (one - 1)).toBe(0);
    expect(rulesHinted('BEARER and a ToKeN at the end: AUTH')).toBe(rulesHinted('bearer token auth'));
    expect(rulesHinted('ends with eyJ')).not.toBe(0);
  });
  it('finds a hint at an odd or even position, in any case (the scan looks at every other position)', () => {
    const hints = ['private key', 'sk-ant-', 'sk-', 'ghp_', 'github_pat_', 'glpat-', 'akia', 'aiza', 'xox', '_live_', 'hf_', 'npm_', 'eyj', 'bearer', '://', 'secret', 'token', 'passw', 'api_key', 'accesskey', 'privatekey', 'credential', 'auth'];
    for (const hint of hints) {
      const alone = rulesHinted(hint);
      expect(alone, hint).not.toBe(0);
      for (let pad = 0; pad < 4; pad++) {
        const upper = [...hint].map((c, i) => (i % 2 === pad % 2 ? c.toUpperCase() : c)).join('');
        for (const text of ['#'.repeat(pad) + hint, '#'.repeat(pad) + upper + '#', 'é'.repeat(pad) + hint + '##'.repeat(pad)]) {
          expect(rulesHinted(text), text).toBe(alone);
        }
      }
      // Cut one character short, at either end, it is no longer found.
      expect(rulesHinted('#' + hint.slice(1)) & alone, hint).not.toBe(alone);
      expect(rulesHinted(hint.slice(0, -1) + '#') & alone, hint).not.toBe(alone);
    }
  });
  it('redacts a keyword the old pre-check missed (PRIVATE_KEY / PRIVATEKEY, no other hint)', () => {
    expect(redact('PRIVATEKEY=Abcdef123456xyz')).toBe('PRIVATEKEY=[REDACTED:env-secret]');
    expect(redact('gcp_private_key: Abcdef123456xyz')).toBe('gcp_private_key: [REDACTED:env-secret]');
  });
  it('finds vendor keys whose prefix sits at the very start or end of the text', () => {
    expect(redact('ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe('[REDACTED:github-token]');
    expect(redact('key AKIAABCDEFGHIJKLMNOP')).toBe('key [REDACTED:aws-access-key]');
  });
});
