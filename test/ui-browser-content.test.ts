// `strata ui` content in chromium: Markdown drawn (never the transcript's HTML), tool inputs summarised in search
// snippets, every hit reachable, excerpts with real newlines, titles cut at a word.
import { describe, expect, it } from 'vitest';
import { REAL_SESSION, RUN_BROWSER, useUiHarness } from './support/ui-browser.js';

const ui = useUiHarness('strata-ui-content-');
const open = ui.open;

describe.runIf(RUN_BROWSER)('strata ui content in chromium', () => {
  it('draws a message written in Markdown', async () => {
    const { page, errors } = await open(`#/session/${REAL_SESSION}?m=31`, '#m-31.msg.target');
    expect(await page.locator('#m-7 .md strong').allTextContents()).toContain('2.5 minutes');
    expect(await page.locator('#m-7 .md ul li').count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator('#m-31 .md code').allTextContents()).toContain('tte');
    expect(await page.locator('#m-7').textContent()).not.toContain('**');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('summarises tool inputs in search snippets and reaches every hit', async () => {
    const { page } = await open('#/search?q=hypridle', '.hit-session');
    const results = (await page.locator('.results').textContent()) ?? '';
    expect(results).toContain('Edit hypridle.conf');
    expect(results).not.toContain('{"replace_all"');
    expect(results).not.toContain('(fts)');
    const busy = page.locator('.hit-session:has(button.more-hits)').first();
    const id = await busy.getAttribute('data-id');
    const label = (await busy.locator('button.more-hits').textContent()) ?? '';
    const total = Number(/show all (\d+) hits/.exec(label)?.[1]);
    expect(total).toBeGreaterThan(await busy.locator('ul.hits li').count());
    await busy.locator('button.more-hits').click();
    const all = page.locator(`.hit-session[data-id="${id}"] ul.hits li`);
    await expect.poll(() => all.count()).toBe(total);
    await page.close();
  });

  it('shows file excerpts with real newlines', async () => {
    const path = encodeURIComponent('/home/vwestberg/.config/hypr/hypridle.conf');
    const { page } = await open(`#/files?path=${path}`, '.file-entry .excerpt');
    const excerpts = await page.locator('.excerpt').allTextContents();
    expect(excerpts.some((e) => e.includes('\n'))).toBe(true);
    expect(excerpts.every((e) => !e.includes('\\n'))).toBe(true);
    await page.close();
  });

  it('cuts long titles at a word with an ellipsis', async () => {
    const { page } = await open('#/sessions?text=eiros', 'table.sessions tbody tr');
    const titles = await page.locator('table.sessions td.col-title > a').allTextContents();
    const long = titles.filter((t) => t.startsWith('Fetch https://github.com/lcleveland/eiros and look'));
    expect(long.length).toBeGreaterThan(0);
    for (const t of long) expect(t).toMatch(/\w…$/);
    for (const t of long) expect(t.length).toBeLessThanOrEqual(101);
    await page.close();
  });

  it('counts sessions and messages one way on every page', async () => {
    const { page } = await open('#/sessions', '.card .value');
    const sessions = await page.locator('.card', { hasText: 'sessions' }).locator('.value').first().textContent();
    const row = page.locator('table.sessions tbody tr', { has: page.locator(`a[href="#/session/${REAL_SESSION}"]`) });
    const listed = await row.locator('td.col-messages').textContent();
    await page.goto(`${ui.url}#/activity`);
    await page.waitForSelector('.uplot');
    const active = await page.locator('.card', { hasText: 'sessions' }).locator('.value').first().textContent();
    expect(sessions).toBe(active);
    await page.goto(`${ui.url}#/session/${REAL_SESSION}`);
    await page.waitForSelector('.msg');
    const facts = await page.locator('dl.facts dt', { hasText: 'messages' }).locator('xpath=following-sibling::dd[1]');
    expect(listed?.trim()).toBe((await facts.textContent())?.trim());
    await page.close();
  });

  it('draws readable activity charts: a bar per month over years, values on hover, a labelled calendar', async () => {
    const { page } = await open('#/activity', '.uplot');
    // The fixtures span more than two years: a bar per month, not a hairline per day.
    const headings = await page.locator('.chart h2').allTextContents();
    expect(headings).toContain('Messages per month');
    const chart = page.locator('.chart', { hasText: 'Messages per month' });
    const over = (await chart.locator('.u-over').boundingBox())!;
    await page.mouse.move(over.x + over.width - 2, over.y + over.height / 2);
    const legend = chart.locator('.u-legend');
    await expect.poll(() => legend.textContent()).toMatch(/month\s*:?\s*\d{4}-\d{2}.*Messages\s*:?\s*[\d,.k]+/s);
    const months = await page.locator('.heat .heat-month').allTextContents();
    expect(months.length).toBeGreaterThanOrEqual(11);
    expect(months).toContain('Jan');
    expect(await page.locator('.heat .heat-day').allTextContents()).toEqual(['Mon', 'Wed', 'Fri']);
    await page.close();
  });
});
