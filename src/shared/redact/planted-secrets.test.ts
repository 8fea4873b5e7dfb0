// A corpus of planted secrets, one per kind, generated here with fake random values: each must be
// replaced by `[REDACTED:<kind>]` and appear nowhere in the output.
import { describe, expect, it } from 'vitest';
import { redactText } from './index.js';

let seed = 0x5eed;
function random(): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x80000000;
}
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const HEX = '0123456789abcdef';
const B64 = ALNUM + '+/';
const URLSAFE = ALNUM + '_-';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
/** `n` random characters of `alphabet`, with a digit and both cases mixed in where the alphabet has them. */
function rand(n: number, alphabet = ALNUM): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)];
  return s;
}
const b64 = (text: string) => Buffer.from(text).toString('base64');
const pemBody = () => 'MII' + rand(60, B64) + '\n' + rand(64, B64) + '\n' + rand(64, B64);

interface Planted {
  name: string;
  kind: string;
  secret: string;
  text: string;
}
const plant = (name: string, kind: string, secret: string, around: (s: string) => string): Planted => ({
  name,
  kind,
  secret,
  text: around(secret),
});

function corpus(): Planted[] {
  return [
    // Vendor tokens (secretlint's recommended preset, and ours where it has none).
    plant('AWS access key id', 'aws-key', 'AKIA' + rand(16, UPPER_DIGITS), (s) => `aws_access_key_id = ${s}`),
    plant('AWS secret access key', 'aws-secret-key', rand(40, B64), (s) => `export AWS_SECRET_ACCESS_KEY="${s}"`),
    plant(
      'GitHub classic token',
      'github-token',
      'ghp_' + rand(36),
      (s) => `git remote set-url origin with ${s} then push`,
    ),
    plant('GitHub fine-grained token', 'github-token', 'github_pat_' + rand(82, ALNUM + '_'), (s) => `token: ${s}`),
    plant('GitLab token', 'gitlab-token', 'glpat-' + rand(20, URLSAFE), (s) => `use ${s} for the API`),
    plant(
      'Slack bot token',
      'slack-token',
      `xoxb-${rand(11, DIGITS)}-${rand(12, DIGITS)}-${rand(24)}`,
      (s) => `SLACK_BOT=${s}`,
    ),
    plant(
      'Slack incoming webhook',
      'slack-webhook',
      `https://hooks.slack.com/services/T${rand(8, UPPER_DIGITS)}/B${rand(8, UPPER_DIGITS)}/${rand(24)}`,
      (s) => `curl -X POST ${s} -d '{}'`,
    ),
    plant(
      'OpenAI project key',
      'openai-key',
      `sk-proj-${rand(74, URLSAFE)}T3BlbkFJ${rand(74, URLSAFE)}`,
      (s) => `client = OpenAI(api_key="${s}")`,
    ),
    plant('OpenAI legacy key', 'openai-key', `sk-${rand(20)}T3BlbkFJ${rand(20)}`, (s) => `the key ${s} works`),
    plant('Anthropic key', 'anthropic-key', `sk-ant-api03-${rand(93, URLSAFE)}AA`, (s) => `x-api-key: ${s}`),
    plant(
      'Anthropic key, short form',
      'anthropic-key',
      `sk-ant-api03-${rand(30, URLSAFE)}`,
      (s) => `my key is ${s}, keep it`,
    ),
    plant('Groq key', 'groq-key', 'gsk_' + rand(52), (s) => `GROQ=${s}`),
    plant(
      'Hugging Face token',
      'huggingface-token',
      'hf_' + rand(34, LETTERS),
      (s) => `huggingface-cli login --token ${s}`,
    ),
    plant('Linear key', 'linear-key', 'lin_api_' + rand(40), (s) => `linear ${s}`),
    plant('Notion token', 'notion-token', 'ntn_' + rand(11, DIGITS) + rand(35), (s) => `notion: ${s}`),
    plant(
      'SendGrid key',
      'sendgrid-key',
      `SG.${rand(22, URLSAFE)}.${rand(43, URLSAFE)}`,
      (s) => `sendgrid.setApiKey('${s}')`,
    ),
    plant(
      'SendGrid key of an unusual length',
      'sendgrid-key',
      `SG.${rand(16, URLSAFE)}.${rand(50, URLSAFE)}`,
      (s) => `SENDGRID_KEY: ${s}`,
    ),
    plant('Twilio API key, bare in code', 'twilio-key', `SK${rand(32, HEX)}`, (s) => `Client("${s}", apiSecret, sid)`),
    plant(
      'Slack app-level token',
      'slack-token',
      `xapp-1-A${rand(10, UPPER_DIGITS)}-${rand(13, DIGITS)}-${rand(64, HEX)}`,
      (s) => `socket mode with ${s} works`,
    ),
    plant('Shopify token', 'shopify-token', 'shpat_' + rand(32, HEX), (s) => `X-Shopify-Access-Token: ${s}`),
    plant('Grafana cloud token', 'grafana-token', 'glc_' + rand(48, B64), (s) => `grafana ${s} `),
    plant('Grafana service account token', 'grafana-token', `glsa_${rand(32)}_${rand(8, HEX)}`, (s) => `grafana ${s}`),
    plant('HashiCorp Vault token', 'vault-token', 'hvs.' + rand(95, URLSAFE), (s) => `VAULT ${s}`),
    plant('Vercel token', 'vercel-token', 'vcp_' + rand(40), (s) => `vercel --token ${s}`),
    plant('Databricks token', 'databricks-token', 'dapi' + rand(32, HEX), (s) => `databricks ${s}`),
    plant('Docker Hub token', 'docker-token', 'dckr_pat_' + rand(27, URLSAFE), (s) => `docker login -p ${s}`),
    plant('Figma token', 'figma-token', 'figd_' + rand(43, URLSAFE), (s) => `figma ${s}`),
    plant('npm token', 'npm-token', 'npm_' + rand(36), (s) => `//registry.npmjs.org/:_authToken=${s}`),
    plant('Google API key', 'google-api-key', 'AIza' + rand(35, URLSAFE), (s) => `maps?key=${s}&v=3`),
    plant(
      'Google OAuth client secret',
      'google-oauth-secret',
      'GOCSPX-' + rand(28, URLSAFE),
      (s) => `{"installed":{"client_secret":"${s}"}}`,
    ),
    plant('Stripe secret key', 'stripe-key', 'sk_live_' + rand(24), (s) => `Stripe(${JSON.stringify(s)})`),
    plant('Stripe webhook secret', 'stripe-webhook-secret', 'whsec_' + rand(32), (s) => `endpoint secret ${s}`),
    plant('Mailgun key', 'mailgun-key', 'key-' + rand(32, HEX), (s) => `mailgun ${s}`),
    plant('PyPI token', 'pypi-token', 'pypi-AgEIcHlwaS5vcmc' + rand(60, URLSAFE), (s) => `twine upload -p ${s}`),
    plant('DigitalOcean token', 'digitalocean-token', 'dop_v1_' + rand(64, HEX), (s) => `doctl auth init -t ${s}`),
    plant(
      'Telegram bot token',
      'telegram-bot-token',
      `${rand(9, DIGITS)}:AA${rand(33, URLSAFE)}`,
      (s) => `bot = Bot("${s}")`,
    ),
    plant('age secret key', 'age-secret-key', 'AGE-SECRET-KEY-1' + rand(58, UPPER_DIGITS), (s) => `# key\n${s}\n`),
    plant('OpenRouter key', 'api-key', 'sk-or-v1-' + rand(64, HEX), (s) => `export OPENROUTER=${s}`),
    plant(
      'JSON web token',
      'jwt',
      `eyJ${rand(20, URLSAFE)}.eyJ${rand(40, URLSAFE)}.${rand(43, URLSAFE)}`,
      (s) => `cookie session=${s};`,
    ),
    // Headers.
    plant(
      'Bearer header',
      'bearer-token',
      rand(40, URLSAFE),
      (s) => `curl -H "Authorization: Bearer ${s}" https://api`,
    ),
    plant('Basic auth header', 'basic-auth', b64(`deploy:${rand(16)}`), (s) => `-H 'Authorization: Basic ${s}'`),
    // Private keys.
    plant(
      'PEM private key',
      'private-key',
      pemBody(),
      (s) => `-----BEGIN RSA PRIVATE KEY-----\n${s}\n-----END RSA PRIVATE KEY-----\n`,
    ),
    plant(
      'PEM private key without its END line',
      'private-key',
      pemBody(),
      (s) => `cat key.pem\n-----BEGIN OPENSSH PRIVATE KEY-----\n${s}`,
    ),
    plant(
      'PEM private key in JSON',
      'private-key',
      pemBody().replace(/\n/g, '\\n'),
      (s) => `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${s}\\n-----END PRIVATE KEY-----\\n"}`,
    ),
    // Passwords in URLs and connection strings.
    plant('URL password', 'url-password', rand(14), (s) => `git clone https://deploy:${s}@git.internal.net/repo.git`),
    plant(
      'URL password with @',
      'url-password',
      `${rand(6)}@${rand(6)}`,
      (s) => `DATABASE_URL=postgres://app:${s}@db.internal:5432/app`,
    ),
    plant('Redis URL', 'url-password', rand(16), (s) => `redis://default:${s}@cache.internal:6379/0`),
    plant(
      'MongoDB connection string',
      'url-password',
      rand(18),
      (s) => `mongodb+srv://admin2:${s}@cluster0.abcde.mongodb.net/db?retryWrites=true`,
    ),
    plant('MySQL connection string', 'url-password', rand(12), (s) => `jdbc:mysql://svc:${s}@mysql.internal:3306/shop`),
    plant(
      'Azure storage AccountKey',
      'azure-key',
      rand(86, B64) + '==',
      (s) => `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${s};EndpointSuffix=core.windows.net`,
    ),
    plant(
      'Azure Service Bus SharedAccessKey',
      'azure-key',
      rand(43, B64) + '=',
      (s) => `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=${s}`,
    ),
    plant(
      'Azure SAS signature',
      'azure-sas',
      rand(40, ALNUM) + '%3D',
      (s) => `https://acct.blob.core.windows.net/c/f?sv=2022-11-02&sp=r&sig=${s}`,
    ),
    // Chat webhooks.
    plant(
      'Discord webhook',
      'discord-webhook',
      rand(68, URLSAFE),
      (s) => `https://discord.com/api/webhooks/${rand(18, DIGITS)}/${s}`,
    ),
    plant(
      'Teams webhook',
      'teams-webhook',
      `${rand(8, HEX)}-${rand(4, HEX)}@${rand(8, HEX)}/IncomingWebhook/${rand(32, HEX)}/${rand(8, HEX)}`,
      (s) => `post to https://contoso.webhook.office.com/webhookb2/${s} now`,
    ),
    // Command lines.
    plant('mysql -p', 'cli-password', rand(12), (s) => `mysql -u root -p${s} -h db shop < dump.sql`),
    plant('sshpass -p', 'cli-password', rand(12), (s) => `sshpass -p '${s}' ssh admin@host uptime`),
    plant('--password flag', 'cli-password', rand(12), (s) => `psql --password=${s} -h db`),
    plant('curl -u user:password', 'cli-password', rand(12), (s) => `curl -u admin:${s} https://api.internal/v1`),
    plant(
      'PGPASSWORD, one run-together word',
      'env-secret',
      `${rand(10)}7!`,
      (s) => `PGPASSWORD=${s} psql -h db -U app`,
    ),
    plant('os.environ item', 'env-secret', rand(24), (s) => `os.environ["SERVICE_TOKEN"] = "${s}"`),
    // Secrets named by their variable.
    plant('REDIS_PASS', 'env-secret', rand(14), (s) => `REDIS_PASS=${s}\nREDIS_HOST=cache`),
    plant('value with $', 'env-secret', `${rand(6)}$${rand(8)}`, (s) => `export DB_PASSWORD=${s}`),
    plant(
      'OAuth client_secret',
      'env-secret',
      rand(32, URLSAFE),
      (s) => `{"client_id": "1234.apps", "client_secret": "${s}"}`,
    ),
    plant('JSON-escaped tool input', 'env-secret', rand(24), (s) =>
      JSON.stringify({ command: `export SERVICE_TOKEN="${s}" && deploy` }),
    ),
    plant('YAML password', 'env-secret', `${rand(10)}!`, (s) => `db:\n  password: ${s}\n  host: db`),
    plant('camelCase apiKey', 'env-secret', rand(32), (s) => `const config = { apiKey: '${s}' }`),
    plant('x-api-key header', 'env-secret', rand(32), (s) => `x-api-key: ${s}`),
    plant(
      'secret in a query string',
      'env-secret',
      rand(24),
      (s) => `https://api.example.net/v1?api_key=${s}&format=json`,
    ),
    // Prose.
    plant(
      'password in prose',
      'password-in-prose',
      `${rand(8, LETTERS)}42`,
      (s) => `ok, the password is ${s}. Try it now`,
    ),
    plant(
      'password after "connected with password"',
      'password-in-prose',
      `Xk9${rand(8)}!`,
      (s) => `I connected with password ${s} and it worked`,
    ),
    plant(
      'password after "login with password"',
      'password-in-prose',
      `${rand(9)}3#`,
      (s) => `login with password ${s}`,
    ),
    plant(
      'password after "my password"',
      'password-in-prose',
      `${rand(8, LETTERS)}&7`,
      (s) => `my password ${s} is old`,
    ),
    plant('password after "passwd"', 'password-in-prose', `${rand(10)}9`, (s) => `user admin passwd ${s} on the box`),
    plant('passphrase in prose', 'password-in-prose', `${rand(6, LETTERS)}-${rand(6)}4`, (s) => `the passphrase ${s}`),
    plant('pw: in a note', 'password-in-prose', `${rand(8)}!2`, (s) => `host db01, user app, pw: ${s}`),
  ];
}

describe('planted secrets', () => {
  const planted = corpus();
  it('has at least 56 distinct kinds of secret', () => {
    expect(new Set(planted.map((p) => p.name)).size).toBe(planted.length);
    expect(planted.length).toBeGreaterThanOrEqual(56);
  });
  it.each(planted.map((p) => [p.name, p] as const))('redacts %s', (_name, p) => {
    const { text, findings } = redactText(p.text);
    expect(text).not.toContain(p.secret);
    // No part of it either (a token cut mid-way leaves its secret part).
    for (let at = 0; at + 12 <= p.secret.length; at += 6) expect(text).not.toContain(p.secret.slice(at, at + 12));
    expect(text).toContain(`[REDACTED:${p.kind}]`);
    expect(findings.map((f) => f.kind)).toContain(p.kind);
  });
  it('replaces only the secret: the text around it is kept as it was', () => {
    for (const p of planted) {
      const { text } = redactText(p.text);
      const at = p.text.indexOf(p.secret);
      expect(text.startsWith(p.text.slice(0, at)), p.name).toBe(true);
      expect(text.endsWith(p.text.slice(at + p.secret.length)), p.name).toBe(true);
    }
  });
  it('is idempotent: a redacted text is left as it is', () => {
    for (const p of planted) {
      const once = redactText(p.text).text;
      expect(redactText(once).text, p.name).toBe(once);
    }
  });
});
