// Each real client's own configuration for runs against the fake model server: the environment that points
// it at the server, and the settings files written into its isolated HOME (telemetry and updates off).
// Shared by the real-client suite and the contract suites of the codex-cli and gemini-cli providers.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeModel } from './fake-model.js';

/** Codex: its home under HOME and the key the fake provider reads. */
export function codexEnv(home: string): Record<string, string> {
  return { CODEX_HOME: join(home, '.codex'), FAKE_MODEL_KEY: 'sk-test-fake' };
}

/** Codex's config.toml: the fake model as a custom provider, with Codex's own retries off. */
export function writeCodexConfig(home: string, server: FakeModel, model = 'gpt-5-codex'): void {
  mkdirSync(join(home, '.codex'), { recursive: true });
  writeFileSync(
    join(home, '.codex', 'config.toml'),
    [
      `model = "${model}"`,
      'model_provider = "fake"',
      'check_for_update_on_startup = false',
      '',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${server.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "FAKE_MODEL_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      '[analytics]',
      'enabled = false',
      '',
    ].join('\n'),
  );
}

/** Gemini CLI: the fake server as its API endpoint, an API key, and no relaunch of itself. */
export function geminiEnv(server: FakeModel): Record<string, string> {
  return { GOOGLE_GEMINI_BASE_URL: server.url, GEMINI_API_KEY: 'test-fake-key', GEMINI_CLI_NO_RELAUNCH: 'true' };
}

/** Gemini's settings.json: API-key auth, telemetry and update checks off, plus `general` extras. */
export function writeGeminiSettings(home: string, general: Record<string, unknown> = {}): void {
  const dir = join(home, '.gemini');
  mkdirSync(dir, { recursive: true });
  const settings = {
    general: { disableAutoUpdate: true, disableUpdateNag: true, ...general },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: true } },
  };
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
}
