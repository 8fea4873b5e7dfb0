// `strata ui` in a real browser: Debian's chromium driven by playwright-core against the built CLI serving a
// store of the real fixtures plus the ui fixture (a transcript holding markup that must not run).
import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCli } from './support/cli.js';
import { UI_SESSION } from './support/ui-fixture.js';
import { REAL_SESSION, RUN_BROWSER, startUi, useUiHarness } from './support/ui-browser.js';

// The page's globals, for the functions that run inside the browser (this program has no DOM types).
declare const document: {
  querySelectorAll(selector: string): Iterable<{ textContent: string | null }> & ArrayLike<unknown>;
};
declare const window: { __pwned?: number };

// A small project of the real fixtures whose logbook (extractive provider) cites REAL_SESSION.
const LOGBOOK_PROJECT = '/home/vwestberg/Claude';

const ui = useUiHarness('strata-ui-browser-', async (env) => {
  const built = await runCli(['logbook', '--project', LOGBOOK_PROJECT], env);
  expect(built.code, built.stderr).toBe(0);
  // Built last, with no event (its sessions hold no decision or fixed bug): the page opens on the fuller one.
  const empty = await runCli(['logbook', '--project', '/root'], env);
  expect(empty.code, empty.stderr).toBe(0);
});
const open = ui.open;

describe.runIf(RUN_BROWSER)('strata ui in chromium', () => {
  it('loads every page without console errors', async () => {
    const pages: [string, string][] = [
      ['#/sessions', 'table.sessions tbody tr'],
      [`#/session/${REAL_SESSION}`, '.msg'],
      ['#/search?q=screen%20saver', '.hit-session'],
      [`#/files?path=${encodeURIComponent('/repo/src/app.ts')}`, '.file-entry'],
      ['#/activity', '.uplot'],
      ['#/logbook', 'li.event'],
    ];
    for (const [hash, ready] of pages) {
      const { page, errors } = await open(hash, ready);
      expect(errors, hash).toEqual([]);
      await page.close();
    }
  });

  it('gets its script compressed and cacheable by content hash, and API answers uncached', async () => {
    const page = await ui.browser.newPage();
    const headers = new Map<string, Record<string, string>>();
    page.on('response', (r) => headers.set(new URL(r.url()).pathname, r.headers()));
    await page.goto(`${ui.url}?assets#/sessions`);
    await page.waitForSelector('table.sessions tbody tr');
    const js = headers.get('/app.js')!;
    expect(['br', 'gzip']).toContain(js['content-encoding']);
    expect(js['cache-control']).toMatch(/immutable/);
    expect(headers.get('/app.css')!['cache-control']).toMatch(/immutable/);
    expect(headers.get('/')!['cache-control']).toBe('no-cache');
    expect(headers.get('/api/sessions')!['cache-control']).toBe('no-store');
    await page.close();
  });

  it('lists sessions sortably with subagents folded under their parent', async () => {
    const { page } = await open('#/sessions', 'table.sessions tbody tr');
    expect(await page.locator('.card .value').first().textContent()).toMatch(/^\d[\d,]*$/);
    await page.click('th[data-sort="messages"]');
    await page.waitForSelector('th[data-sort="messages"][aria-sort="descending"]');
    await page.fill('input[name="text"]', 'screen saver');
    await page.waitForFunction(() => document.querySelectorAll('table.sessions tbody tr').length === 1);
    await page.click('button.fold');
    await page.waitForSelector('tr.child');
    await page.close();
  });

  it('search finds the expected session and opens it at the message', async () => {
    const { page } = await open('#/search?q=screen%20saver', '.hit-session');
    const hrefs = await page.locator('.hit-session h2 a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toContain(`#/session/${REAL_SESSION}`);
    expect(await page.locator('.hit-session mark').count()).toBeGreaterThan(0);
    await page.locator('a.hit').first().click();
    await page.waitForSelector('.msg.target');
    await page.close();
  });

  it('shows edits as diffs on a session page', async () => {
    const { page } = await open(`#/session/${REAL_SESSION}`, '.diff');
    expect(await page.locator('.diff .ln.add').count()).toBeGreaterThan(0);
    expect(await page.locator('.diff .ln.del').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('shows the logbook timeline, filters it, and opens a cited message in its session', async () => {
    const { page, errors } = await open('#/logbook', 'li.event');
    expect(await page.locator('nav.top a[data-page="logbook"]').isVisible()).toBe(true);
    const types = await page.locator('li.event .badge.type').allTextContents();
    expect(types.length).toBeGreaterThanOrEqual(1);
    expect(types.every((t) => ['decision', 'fact', 'bug'].includes(t))).toBe(true);
    expect(await page.locator('.logbook-summary').textContent()).toContain(LOGBOOK_PROJECT);
    await page.uncheck('input[name="type"][value="decision"]');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('li.event .badge.type')].every((b) => b.textContent !== 'decision'),
    );
    expect(page.url()).toMatch(/#\/logbook\?.*type=fact%2Cbug/);
    await page.check('input[name="type"][value="decision"]');
    await page.locator('li.event .badge.type', { hasText: 'decision' }).first().waitFor();
    await page.fill('input[name="text"]', 'no event says this');
    await page.waitForSelector('.results .empty');
    await page.fill('input[name="text"]', '');
    const cite = page.locator(`li.event a.cite[href^="#/session/${REAL_SESSION}?m="]`).first();
    await cite.waitFor();
    const message = Number((await cite.getAttribute('href'))!.split('?m=')[1]);
    expect(message).toBeGreaterThan(0);
    await cite.click();
    await page.waitForSelector(`#m-${message}.msg.target`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says how to make a logbook when the store has none', async () => {
    const emptyEnv = { ...ui.harness.env, STRATA_HOME: join(ui.harness.dir, 'empty-home') };
    const empty = await startUi(emptyEnv);
    ui.harness.servers.push(empty.child);
    const { page, errors } = await open('#/logbook', '.logbook-empty', empty.url);
    expect(await page.locator('.logbook-empty').textContent()).toContain('strata logbook --project DIR');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a transcript holding <script> as text and never runs it', async () => {
    const { page, errors } = await open(`#/session/${UI_SESSION}`, '.msg');
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(await page.locator('#m-1 .text').textContent()).toContain('<script>window.__pwned = 1</script>');
    expect(await page.locator('.messages script, .messages img').count()).toBe(0);
    expect(await page.locator('.badge.error').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('exports a session as one HTML file that renders offline without running transcript markup', async () => {
    const out = join(ui.harness.dir, 'export.html');
    const r = await runCli(['export', UI_SESSION.slice(0, 8), '--html', out], ui.harness.env);
    expect(r.code, r.stderr).toBe(0);
    const page = await ui.browser.newPage();
    await page.goto(pathToFileURL(out).href);
    await page.waitForSelector('.diff .ln.add');
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(await page.locator('#m-1 .text').textContent()).toContain('<script>');
    await page.close();
  });

  it('refuses a request with a foreign Host header', async () => {
    const { port } = new URL(ui.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: Number(port), path: '/api/sessions', headers: { Host: 'rebound.attacker.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});
