// Texts that are not secrets stay exactly as they are: each of these was once redacted (the original
// gone from the store), from real transcripts.
import { describe, expect, it } from 'vitest';
import { createHintScanner } from './hint-scan.js';
import { redactText } from './index.js';
import { secretNameKind } from './own-rules.js';
import { presetRuleIds, VENDOR_RULES, VENDOR_RULES_NOT_RUN } from './vendor-rules.js';

const untouched = [
  'git_author_name = "Jane Q. Developer"',
  "GIT_AUTHOR_NAME='Vincent Westberg' GIT_AUTHOR_EMAIL=v@example.org git commit",
  'prompt_tokens = usage.prompt_tokens',
  'completion_tokens = response.usage.completion_tokens',
  'max_tokens: Optional[int] = None',
  'def count(self, max_tokens: int = 4096, token_budget: int = 8000):',
  '"max_tokens": 1024, "input_tokens": 52311, "cache_read_input_tokens": 20444',
  'TOKEN=process.env.GITHUB_TOKEN',
  'AUTH_MODE=required',
  'password: undefined',
  'SECRET_NAME=PRODUCTION_DB',
  '{"token": "required", "auth": "none"}',
  'const token = await getToken(scope);',
  'token_count = len(tokenizer.encode(text))',
  'password_min_length: 12',
  'export OPENAI_API_KEY=${OPENAI_API_KEY}',
  'ANTHROPIC_API_KEY=your-api-key-here',
  'export ANTHROPIC_API_KEY=votre-clé-va-ici',
  'initial_password = "change_me";',
  "'Conditional Pass':'bg-yellow-100 text-yellow-700','Cancelled':'bg-gray-100'",
  'qpdf --password=mypassword --decrypt in.pdf out.pdf',
  'https://demo.example.org/search?api_key=DEMO_KEY&q=tides&page=2&limit=50',
  'see https://github.com/owner/repo/blob/main/src/auth/token.ts#L10 for the token refresh',
  'ssh://git@github.com/owner/repo.git',
  'mailto:someone@example.org',
  'the password is stored in the macOS keychain',
  'Use `Authorization: Bearer <token>` with your own token.',
  'Authorization: Basic dXNlcm5hbWU6cGFzc3dvcmQ= is the example from the docs',
  'const authorizationHeader = `Basic ${btoa(user + ":" + pass)}`;',
  'The secret to good tests: keep them small.',
  'tokens: 1234, key: value, secret_sauce: none',
  'keyboard: us; monkey: banana; turkey: roast',
  'use the password field to log in; the passphrase (optional) unlocks the key',
  'sudo passwd deploy01 && echo x | passwd --stdin bob; cat /etc/passwd root:x:0:0',
  'pw: Option<String>, pw=getpass(), login with password authentication enabled',
  'task SKIPPED: asked 3e4f, SG.Foo.barBaz from the namespace',
];

describe('false positives', () => {
  it.each(untouched.map((t) => [t]))('leaves %s untouched', (text) => {
    expect(redactText(text)).toEqual({ text, findings: [] });
  });
  it('redacts the demo key in a query string, and nothing else of the URL', () => {
    const url = 'https://api.example.net/v1/tides?station=9414290&api_key=q8Zr2LmX0vB7nK4w&units=metric&format=json';
    expect(redactText(url).text).toBe(
      'https://api.example.net/v1/tides?station=9414290&api_key=[REDACTED:env-secret]&units=metric&format=json',
    );
  });
});

describe('names of secrets', () => {
  it('knows a secret by the last word of its name', () => {
    for (const name of [
      'REDIS_PASS',
      'DATABASE_PASSWORD',
      'db.password',
      'GITHUB_TOKEN',
      'AUTH_TOKEN_SECRET',
      'apiKey',
      'x-api-key',
      'AccountKey',
      'client_secret',
      'SECRET_KEY_BASE',
      'TOKEN_VALUE',
      '_authToken',
    ]) {
      expect(secretNameKind(name), name).not.toBeNull();
    }
    for (const name of [
      'git_author_name',
      'prompt_tokens',
      'max_tokens',
      'token_count',
      'tokenizer',
      'password_min_length',
      'SECRET_NAME',
      'auth_mode',
      'key',
      'Pass',
      'monkey',
    ]) {
      expect(secretNameKind(name), name).toBeNull();
    }
  });
});

describe('secretlint preset', () => {
  it('names every rule of the recommended preset (a rule added upstream must be named here)', () => {
    for (const id of presetRuleIds())
      expect(VENDOR_RULES[id] !== undefined || VENDOR_RULES_NOT_RUN.has(id), id).toBe(true);
  });
});

describe('hint scan', () => {
  const hints = [
    ['private key', 'sk-ant-'],
    ['ghp_', '://'],
    ['auth', 'eyj'],
  ];
  const scanner = createHintScanner(hints);
  it('finds each hint at an odd or even position, in any case, and nothing in plain text', () => {
    expect(scanner.scan('plain prose without anything')).toBeNull();
    expect(scanner.scan('')).toBeNull();
    hints.forEach((group, rule) => {
      for (const hint of group) {
        for (let pad = 0; pad < 4; pad++) {
          const upper = [...hint].map((c, i) => (i % 2 === pad % 2 ? c.toUpperCase() : c)).join('');
          for (const text of [
            '#'.repeat(pad) + hint,
            '#'.repeat(pad) + upper + '#',
            'é'.repeat(pad) + hint + '##'.repeat(pad),
          ]) {
            expect(scanner.scan(text), text).toEqual([rule]);
          }
        }
        expect(scanner.scan('#' + hint.slice(1)), hint).toBeNull();
        expect(scanner.scan(hint.slice(0, -1) + '#'), hint).toBeNull();
      }
    });
    expect(scanner.scan('AUTH then GHP_ then Private Key')).toEqual([0, 1, 2]);
  });
});

describe('hostile input', () => {
  it('scans long runs of keywords, URLs and commands in linear time', () => {
    const texts = [
      'keytokenauthsecret'.repeat(40_000),
      'x://u:'.repeat(60_000) + 'p',
      'mysql '.repeat(60_000) + '-p',
      'curl -x '.repeat(50_000),
      '-----BEGIN PRIVATE KEY-----' + 'A'.repeat(500_000),
      'password is '.repeat(40_000),
      '"token": "'.repeat(50_000),
      'https://u:' + '@'.repeat(200_000),
    ];
    for (const text of texts) expect(typeof redactText(text).text).toBe('string');
  });
});
