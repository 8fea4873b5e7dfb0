// `strata ui` from the keyboard in chromium: `/` search, `j`/`k` between messages, `?` help, sort headers as
// buttons reached by Tab, and copy buttons for a session id and its `strata read` command.
import { describe, expect, it } from 'vitest';
import { REAL_SESSION, RUN_BROWSER, useUiHarness } from './support/ui-browser.js';

// The page's globals, for the functions that run inside the browser (this program has no DOM types).
declare const document: { activeElement: { tagName: string; getAttribute(name: string): string | null } | null };
declare const navigator: { clipboard: { readText(): Promise<string> } };

const ui = useUiHarness('strata-ui-keys-');
const open = ui.open;

describe.runIf(RUN_BROWSER)('strata ui keyboard in chromium', () => {
  it('moves between messages with j and k, shows help with ?, searches with /', async () => {
    const { page, errors } = await open(`#/session/${REAL_SESSION}?m=5`, '#m-5.msg.target');
    await page.keyboard.press('j');
    await page.waitForSelector('#m-7.msg.target, #m-6.msg.target');
    const after = Number(/m=(\d+)/.exec(page.url())?.[1]);
    expect(after).toBeGreaterThan(5);
    await page.keyboard.press('k');
    await page.waitForSelector('#m-5.msg.target');
    await page.keyboard.press('?');
    await page.waitForSelector('dialog.help[open]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog.help', { state: 'hidden' });
    await page.keyboard.press('/');
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'q');
    expect(new URL(page.url()).hash).toBe('#/search');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('sorts the sessions table from the keyboard', async () => {
    const { page } = await open('#/sessions', 'table.sessions tbody tr');
    await page.focus('th[data-sort="messages"] button');
    await page.keyboard.press('Enter');
    await page.waitForSelector('th[data-sort="messages"][aria-sort="descending"]');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-sort'))).toBe('messages');
    await page.close();
  });

  it('copies a session id and a read command', async () => {
    await ui.browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(ui.url).origin });
    const { page } = await open(`#/session/${REAL_SESSION}?m=9`, '#m-9.msg.target');
    await page.click('.session-head button.copy');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(REAL_SESSION);
    await page.click('#m-9 header button.copy');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('strata read 1fb5e404 9');
    await page.close();
  });

  it('lets the keyboard scroll diffs and gives charts a text alternative', async () => {
    const { page } = await open(`#/session/${REAL_SESSION}`, '.diff');
    expect(await page.locator('pre.diff-body:not([tabindex="0"])').count()).toBe(0);
    await page.goto(`${ui.url}#/activity`);
    await page.waitForSelector('.uplot');
    const labels = await page.locator('.chart canvas').evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label')));
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) expect(label).toMatch(/per (day|week|month), \d+ (day|week|month)s from .+ in all$/);
    await page.close();
  });
});
