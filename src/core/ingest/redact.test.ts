import { describe, expect, it } from 'vitest';
import { createRedactor } from './redact.js';

describe('env-style secrets (KEY=value)', () => {
  const redact = (text: string) => createRedactor().redact(text);
  it('redacts the value wherever the keyword sits in the name, in any case', () => {
    expect(redact('export MY_API_KEY="abc123DEF456ghi"')).toBe('export MY_API_KEY="[REDACTED:env-secret]"');
    expect(redact('DATABASE_PASSWORD=hunter2Secret99')).toBe('DATABASE_PASSWORD=[REDACTED:env-secret]');
    expect(redact('const apiKey: "Zx81kq02LmNbv7"')).toBe('const apiKey: "[REDACTED:env-secret]"');
    expect(redact('AUTH_TOKEN_SECRET = 9f8e7d6c5b4a3210')).toBe('AUTH_TOKEN_SECRET = [REDACTED:env-secret]');
  });
  it('leaves code and plain words alone', () => {
    for (const text of ['TOKEN=process.env.GITHUB_TOKEN', 'AUTH_MODE=required', 'password: undefined', 'SECRET_NAME=PRODUCTION_DB']) {
      expect(redact(text)).toBe(text);
    }
  });
});
