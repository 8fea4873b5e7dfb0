// `strata ui` on a long session in chromium (the real 463-message session): messages drawn a window at a time
// with more both ways around a permalink, j/k and find reaching messages not drawn and text in folds, and
// injected skill text folded.
import { describe, expect, it } from 'vitest';
import { REAL_SESSION, RUN_BROWSER, useUiHarness } from './support/ui-browser.js';

// The page's globals, for the functions that run inside the browser (this program has no DOM types).
declare const location: { href: string };
declare const document: {
  activeElement: { getAttribute(name: string): string | null } | null;
  querySelector(selector: string): { closest(selector: string): { open: boolean } | null } | null;
};

const ui = useUiHarness('strata-ui-big-');
const ids = (page: { locator(s: string): { evaluateAll<T>(f: (els: { id: string }[]) => T): Promise<T> } }) =>
  page.locator('.msg').evaluateAll((els) => els.map((el) => Number(el.id.slice(2))));

describe.runIf(RUN_BROWSER)('strata ui long sessions in chromium', () => {
  it('draws a window of messages around a permalink, with more both ways', async () => {
    const { page, errors } = await ui.open(`#/session/${REAL_SESSION}?m=300`, '#m-300.msg.target');
    const drawn = await ids(page);
    expect(drawn.length).toBeLessThanOrEqual(110);
    expect(Math.min(...drawn)).toBeGreaterThan(250);
    expect(await page.locator('#m-1').count()).toBe(0);
    // Each button reads its messages from the server first.
    await page.click('button.load-more.earlier');
    await expect.poll(async () => Math.min(...(await ids(page)))).toBeLessThan(Math.min(...drawn));
    await page.click('button.load-more.later');
    await expect.poll(async () => Math.max(...(await ids(page)))).toBe(463);
    expect(await page.locator('button.load-more.later').isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('steps with j past the last message drawn', async () => {
    const { page } = await ui.open(`#/session/${REAL_SESSION}?m=5`, '#m-5.msg.target');
    const last = Math.max(...(await ids(page)));
    expect(last).toBeLessThan(463);
    await page.goto(`${ui.url}#/session/${REAL_SESSION}?m=${last}`);
    await page.waitForSelector(`#m-${last}.msg.target`);
    await page.keyboard.press('j');
    await page.waitForFunction((n) => Number(/m=(\d+)/.exec(location.href)?.[1]) > n, last);
    const after = Number(/m=(\d+)/.exec(page.url())?.[1]);
    await page.waitForSelector(`#m-${after}.msg.target`);
    await page.close();
  });

  it('finds words in folds of messages not drawn, with next and previous', async () => {
    const { page, errors } = await ui.open(`#/session/${REAL_SESSION}`, '#m-1.msg');
    expect(await page.locator('.msg', { hasText: 'hackerman' }).count()).toBe(0);
    await page.keyboard.press('Control+f');
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'find');
    await page.keyboard.type('hackerman');
    await page.keyboard.press('Enter');
    const first = page.locator('mark.current');
    await first.waitFor();
    expect((await first.textContent())?.toLowerCase()).toBe('hackerman');
    expect(await page.evaluate(() => document.querySelector('mark.current')?.closest('details')?.open)).toBe(true);
    const firstAt = Number(/m=(\d+)/.exec(page.url())?.[1]);
    expect(firstAt).toBeGreaterThan(250);
    await page.click('form.find button.find-next');
    await page.waitForFunction((n) => Number(/m=(\d+)/.exec(location.href)?.[1]) !== n, firstAt);
    expect(Number(/m=(\d+)/.exec(page.url())?.[1])).toBeGreaterThan(firstAt);
    await page.click('form.find button.find-previous');
    await page.waitForFunction((n) => Number(/m=(\d+)/.exec(location.href)?.[1]) === n, firstAt);
    expect(await page.locator('.find-count').textContent()).toMatch(/message 1 of 2/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('reads the first window alone, then the messages find reaches past it', async () => {
    const page = await ui.browser.newPage();
    const answers: { path: string; bytes: number }[] = [];
    page.on('response', async (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/')) answers.push({ path: url.pathname, bytes: (await r.body()).length });
    });
    await page.goto(`${ui.url}#/session/${REAL_SESSION}`);
    await page.waitForSelector('#m-1.msg');
    const whole = await (await fetch(`${ui.url}api/session?id=${REAL_SESSION}`)).arrayBuffer();
    await expect.poll(() => answers.length).toBe(1);
    expect(answers[0]!.path).toBe('/api/session-window');
    // The whole session is about 400 kB of JSON; its header and first 100 messages a small part of it.
    expect(answers[0]!.bytes).toBeLessThan(whole.byteLength / 3);
    expect(answers[0]!.bytes).toBeLessThan(150_000);
    expect(await page.locator('#m-285').count()).toBe(0);
    await page.fill('form.find input[name=find]', 'hackerman');
    await page.keyboard.press('Enter');
    await page.locator('mark.current').waitFor();
    expect(Number(/m=(\d+)/.exec(page.url())?.[1])).toBeGreaterThan(250);
    expect(answers.map((a) => a.path)).toEqual(['/api/session-window', '/api/find', '/api/messages']);
    await page.close();
  });

  it('marks a word of a search hit that occurs once in its text', async () => {
    const { page } = await ui.open(`#/session/${REAL_SESSION}?m=286&hl=hackerman`, '#m-285.msg.target');
    expect(await page.locator('#m-285 mark').allTextContents()).toEqual(['hackerman']);
    await page.close();
  });

  it('folds the text of a skill the harness injected', async () => {
    const { page } = await ui.open(`#/session/${REAL_SESSION}`, '#m-4.msg');
    const fold = page.locator('#m-4 details.injected');
    expect(await fold.locator('summary').textContent()).toContain('skill omarchy');
    expect(await fold.getAttribute('open')).toBeNull();
    expect((await page.locator('#m-4').boundingBox())!.height).toBeLessThan(150);
    await page.close();
  });
});
