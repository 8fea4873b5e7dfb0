// `strata ui` themes in chromium: light and dark follow prefers-color-scheme, and every text on every page keeps
// at least 4.5:1 contrast against the background it is drawn on.
import { describe, expect, it } from 'vitest';
import { REAL_SESSION, RUN_BROWSER, useUiHarness } from './support/ui-browser.js';

// The page's globals, for the functions that run inside the browser (this program has no DOM types).
interface El {
  parentElement: El | null;
  childNodes: ArrayLike<{ nodeType: number; textContent: string | null }>;
  tagName: string;
  className: string;
  textContent: string | null;
  getClientRects(): ArrayLike<unknown>;
  closest(selector: string): El | null;
}
declare const document: { body: El; querySelectorAll(selector: string): ArrayLike<El> };
declare function getComputedStyle(el: El): { color: string; backgroundColor: string; visibility: string };

/** Texts whose contrast with their effective background is under 4.5:1, as "tag.class ratio text". */
function lowContrast(): string[] {
  const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
  const lum = ([r = 0, g = 0, b = 0]: number[]) => {
    const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el: El | null): number[] => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3]! > 0.5)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const out: string[] = [];
  for (const el of Array.from(document.querySelectorAll('body *'))) {
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && (n.textContent ?? '').trim());
    if (!own || el.getClientRects().length === 0 || el.closest('details:not([open]) > :not(summary)')) continue;
    if (getComputedStyle(el).visibility === 'hidden' || el.tagName === 'OPTION') continue;
    const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(background(el))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5)
      out.push(`${el.tagName}.${el.className} ${ratio.toFixed(2)} ${(el.textContent ?? '').slice(0, 30)}`);
  }
  return [...new Set(out)].slice(0, 10);
}

const ui = useUiHarness('strata-ui-theme-');

describe.runIf(RUN_BROWSER)('strata ui themes in chromium', () => {
  it('draws light and dark themes with readable text on every page', async () => {
    const pages: [string, string][] = [
      ['#/sessions', 'table.sessions tbody tr'],
      [`#/session/${REAL_SESSION}?m=9`, '.msg'],
      ['#/search?q=hypridle', '.hit-session'],
      [`#/files?path=${encodeURIComponent('/repo/src/app.ts')}`, '.file-entry'],
      ['#/activity', '.uplot'],
      ['#/logbook', 'main h1'],
    ];
    const page = await ui.browser.newPage();
    const backgrounds: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const [hash, ready] of pages) {
        await page.goto(ui.url + hash);
        await page.waitForSelector(ready, { timeout: 120_000 });
        expect(await page.evaluate(lowContrast), `${colorScheme} ${hash}`).toEqual([]);
      }
      backgrounds.push(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
    }
    expect(backgrounds[0]).not.toBe(backgrounds[1]);
    await page.close();
  });
});
