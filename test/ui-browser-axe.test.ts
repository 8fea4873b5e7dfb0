// `strata ui` checked by axe-core in chromium: no serious or critical violation on any page, light or dark,
// including the session page with its folds and find bar, the help dialog, and the logbook timeline.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { REAL_SESSION, RUN_BROWSER, useUiHarness } from './support/ui-browser.js';

// The page's globals, for the functions that run inside the browser (this program has no DOM types).
interface AxeResult {
  violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[];
}
declare const axe: { run(context: unknown, options: unknown): Promise<AxeResult> };
declare const document: unknown;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ui = useUiHarness('strata-ui-axe-', async (env) => {
  const built = await runCli(['logbook', '--project', '/home/vwestberg/Claude'], env);
  expect(built.code, built.stderr).toBe(0);
});

/** Serious and critical violations on the page as drawn, as "rule: target, target". */
async function violations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the page's Content-Security-Policy does not block it.
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() => axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`.slice(0, 400));
}

const PAGES: [string, string][] = [
  ['#/sessions', 'table.sessions tbody tr'],
  [`#/session/${REAL_SESSION}?m=9`, '.msg.target'],
  ['#/search?q=hypridle', '.hit-session'],
  [`#/files?path=${encodeURIComponent('/repo/src/app.ts')}`, '.file-entry'],
  ['#/activity', '.uplot'],
  ['#/logbook', 'li.event'],
];

describe.runIf(RUN_BROWSER)('strata ui accessibility (axe-core) in chromium', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no serious or critical violation on any page, ${colorScheme}`, async () => {
      const page = await ui.browser.newPage();
      await page.emulateMedia({ colorScheme });
      const found: string[] = [];
      for (const [hash, ready] of PAGES) {
        await page.goto(`${ui.url}?axe=${colorScheme}${hash}`);
        await page.waitForSelector(ready, { timeout: 120_000 });
        found.push(...(await violations(page)).map((v) => `${hash} ${v}`));
      }
      // A session with its folds open, a find under way, and the keyboard help open.
      await page.goto(`${ui.url}?axe=open#/session/${REAL_SESSION}?m=286&hl=hackerman`);
      await page.waitForSelector('#m-285 details[open]');
      found.push(...(await violations(page)).map((v) => `session at 286 ${v}`));
      await page.fill('form.find input', 'theme');
      await page.keyboard.press('Enter');
      await page.waitForSelector('mark.current');
      found.push(...(await violations(page)).map((v) => `session open ${v}`));
      await page.locator('main h1').click();
      await page.keyboard.press('?');
      await page.waitForSelector('dialog.help[open]');
      found.push(...(await violations(page)).map((v) => `help ${v}`));
      expect(found).toEqual([]);
      await page.close();
    });
  }
});
