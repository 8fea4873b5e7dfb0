// `strata ui` links and layout in chromium: every view is a permalink that survives a reload, any change of the
// URL redraws, a search hit opens its message unfolded and highlighted, and no page scrolls sideways on a phone.
import { describe, expect, it } from 'vitest';
import { REAL_SESSION, RUN_BROWSER, useUiHarness } from './support/ui-browser.js';

// The page's globals, for the functions that run inside the browser (this program has no DOM types).
declare const document: {
  title: string;
  activeElement: { tagName: string; getAttribute(name: string): string | null } | null;
  documentElement: { scrollWidth: number };
  location: { hash: string };
  querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
};

const ui = useUiHarness('strata-ui-links-');
const open = ui.open;

describe.runIf(RUN_BROWSER)('strata ui links and layout in chromium', () => {
  it('keeps the route when a message number is clicked, and a reload reopens the message', async () => {
    const { page, errors } = await open(`#/session/${REAL_SESSION}?m=5`, '#m-5.msg.target');
    await page.locator('#m-9 a.n').click();
    await page.waitForSelector('#m-9.msg.target');
    expect(new URL(page.url()).hash).toBe(`#/session/${REAL_SESSION}?m=9`);
    await page.reload();
    await page.waitForSelector('#m-9.msg.target');
    expect(await page.locator('.msg').count()).toBeGreaterThan(10);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('redraws when only the query of the URL changes', async () => {
    const { page } = await open('#/search?q=hypridle', '.hit-session');
    expect(await page.evaluate(() => document.title)).toBe('hypridle · Search · strata');
    await page.evaluate(() => {
      document.location.hash = '#/search?q=screen%20saver';
    });
    await page.waitForFunction(() =>
      [...Array.from(document.querySelectorAll('.hit-session mark'))].some((m) => /screen/i.test(m.textContent ?? '')),
    );
    await page.evaluate(() => {
      document.location.hash = `#/files?path=${encodeURIComponent('/repo/src/app.ts')}`;
    });
    await page.waitForSelector('.file-entry');
    const first = await page.locator('.results').textContent();
    await page.evaluate(() => {
      document.location.hash = `#/files?path=${encodeURIComponent('/home/vwestberg/.config/hypr/hypridle.conf')}`;
    });
    // The answer replaces "looking…", which itself differs from the page before.
    await page.waitForFunction((before) => {
      const text = document.querySelectorAll('.results')[0]?.textContent;
      return text !== before && !text?.includes('looking…');
    }, first);
    expect(await page.locator('.results').textContent()).toContain('hypridle');
    await page.close();
  });

  it('opens a hit on a tool result at its message with the call unfolded and the words marked', async () => {
    const { page } = await open('#/search?q=timeout', '.hit-session');
    const hit = page.locator(`a.hit[href^="#/session/${REAL_SESSION}?m=6"]`);
    await hit.first().click();
    await page.waitForSelector('.msg.target details[open] mark');
    expect(new URL(page.url()).hash).toMatch(new RegExp(`^#/session/${REAL_SESSION}\\?m=6`));
    expect((await page.locator('.msg.target details[open] mark').first().textContent())?.toLowerCase()).toBe('timeout');
    await page.close();
  });

  it('titles each page, focuses its heading, and focuses the search box on Search', async () => {
    const { page } = await open('#/sessions', 'table.sessions tbody tr');
    expect(await page.evaluate(() => document.title)).toBe('Sessions · strata');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await page.click('nav.top a[data-page="search"]');
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'q');
    expect(await page.evaluate(() => document.title)).toBe('Search · strata');
    await page.click('nav.top a[data-page="activity"]');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect(await page.evaluate(() => document.title)).toBe('Activity · strata');
    await page.close();
  });

  it('fits every page in a 390 px wide phone screen', async () => {
    const pages: [string, string][] = [
      ['#/sessions', 'table.sessions tbody tr'],
      [`#/session/${REAL_SESSION}`, '.msg'],
      ['#/search?q=screen%20saver', '.hit-session'],
      [`#/files?path=${encodeURIComponent('/repo/src/app.ts')}`, '.file-entry'],
      ['#/activity', '.uplot'],
      ['#/logbook', 'main h1'],
    ];
    const page = await ui.browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [hash, ready] of pages) {
      await page.goto(ui.url + hash);
      await page.waitForSelector(ready, { timeout: 120_000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth), hash).toBeLessThanOrEqual(390);
    }
    await page.close();
  });
});
