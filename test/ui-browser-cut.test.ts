// `strata ui` in chromium on a block longer than the session answer sends: the page shows the first 100,000
// characters and a "show more" button that reads the rest into the block a page at a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { openPage, RUN_BROWSER, startHarness, stopHarness, type UiHarness } from './support/ui-browser.js';

const SID = '22222222-3333-4444-8555-666666666666';
const OUTPUT = Array.from({ length: 30_000 }, (_, i) => `line ${i} of a long build log\n`).join('');

let ui: UiHarness | undefined;

describe.runIf(RUN_BROWSER)('a long block in chromium', () => {
  beforeAll(async () => {
    ui = await startHarness('strata-ui-cut-', async (env) => {
      const base = { isSidechain: false, userType: 'external', cwd: '/work/cut', sessionId: SID, version: '2.1.97' };
      const records = [
        {
          ...base,
          type: 'user',
          uuid: 'u1',
          parentUuid: null,
          timestamp: '2026-01-01T00:00:00.000Z',
          message: { role: 'user', content: 'log' },
        },
        {
          ...base,
          type: 'user',
          uuid: 'u2',
          parentUuid: 'u1',
          timestamp: '2026-01-01T00:00:01.000Z',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'nowhere', content: OUTPUT }] },
        },
      ];
      const file = join(env.HOME!, `${SID}.jsonl`);
      writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
      const r = await runCli(['ingest', file], env);
      expect(r.code, r.stderr).toBe(0);
    });
  });

  afterAll(() => stopHarness(ui));

  it('shows the first 100,000 characters, then the rest on "show more"', async () => {
    const { page, errors } = await openPage(ui!, `#/session/${SID}`, '#m-2.msg');
    await page.locator('#m-2 details.result > summary').click();
    const pre = page.locator('#m-2 details.result pre.code');
    expect(((await pre.textContent()) ?? '').length).toBe(100_000);
    expect(await page.locator('#m-2 div.cut').textContent()).toMatch(/… [\d,]+ more characters/);
    await page.locator('#m-2 div.cut button.more').click();
    await expect.poll(async () => (await pre.textContent()) ?? '').toBe(OUTPUT);
    expect(await page.locator('#m-2 div.cut').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
