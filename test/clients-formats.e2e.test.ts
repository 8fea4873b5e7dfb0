// Today's files of the real clients whose sessions strata reads but does not configure (pinned in
// test/clients/package.json, installed by .ci/run): each runs headless against the fake model server, then
// strata reads what it wrote (see test/support/format-suite.ts). It catches the next format drift.
// Each is skipped with one line when it is not installed; under CI its absence fails the run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeFormat, FORMAT_PROMPT, NOTE } from './support/format-suite.js';

describeFormat({
  name: 'Qwen Code',
  agent: 'qwen',
  bin: 'qwen',
  env: (server) => ({
    OPENAI_BASE_URL: `${server.url}/v1`,
    OPENAI_API_KEY: 'sk-test-fake',
    OPENAI_MODEL: 'fake-model',
  }),
  setup(sandbox) {
    const dir = join(sandbox.home, '.qwen');
    mkdirSync(dir, { recursive: true });
    const settings = {
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      security: { auth: { selectedType: 'openai' } },
      model: { name: 'fake-model' },
    };
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
  },
  args: () => ['--yolo', '--auth-type', 'openai', '-m', 'fake-model', FORMAT_PROMPT],
  tool: (sandbox) => ({
    name: 'write_file',
    args: { file_path: join(sandbox.project, 'notes.md'), content: `${NOTE}\n` },
  }),
  skipped: ['system:attribution_snapshot', 'system:ui_telemetry'],
});

describeFormat({
  name: 'GitHub Copilot CLI',
  agent: 'copilot-cli',
  bin: 'copilot',
  // Offline mode with a local provider: no GitHub login, telemetry, update or web access.
  env: (server) => ({
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: `${server.url}/v1`,
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_API_KEY: 'sk-test-fake',
    COPILOT_MODEL: 'gpt-4.1',
  }),
  args: () => ['-p', FORMAT_PROMPT, '--allow-all-tools', '--no-auto-update', '--disable-client-telemetry'],
  tool: (sandbox) => ({
    name: 'create',
    args: { path: join(sandbox.project, 'notes.md'), file_text: `${NOTE}\n` },
  }),
  // Per-call `session.usage_record`s repeat what `session.shutdown` totals: reading both would count twice.
  skipped: [
    'session.start',
    'system.message',
    'assistant.turn_start',
    'assistant.turn_end',
    'session.usage_record',
    'tool.execution_start',
  ],
});
