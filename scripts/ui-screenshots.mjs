// Saves a PNG of each page of a running `strata ui` into docs/ui/ (for the docs and the README):
//   node scripts/ui-screenshots.mjs http://127.0.0.1:PORT/ SESSION_ID FILE_PATH "SEARCH WORDS"
// Drives Debian's chromium (CHROMIUM=/path overrides) through playwright-core. SHOT_MESSAGE picks the
// message of session-diff.png, SHOT_LOGBOOK the logbook workspace (default: the newest logbook),
// SHOTS=logbook,search takes only those pages. Every page is taken at desktop size in the light theme
// (NAME.png); sessions, session-diff and search also dark (NAME-dark.png) and on a 390×844 phone
// (NAME-phone.png, NAME-phone-dark.png).
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const [url, session, file, query] = process.argv.slice(2);
if (!url || !session || !file || !query) {
  console.error('usage: node scripts/ui-screenshots.mjs URL SESSION_ID FILE_PATH "SEARCH WORDS"');
  process.exit(2);
}
const VARIED = new Set(['sessions', 'session-diff', 'search']);
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'ui');
mkdirSync(out, { recursive: true });
const profile = mkdtempSync(join(tmpdir(), 'strata-shots-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1400, height: 1000 },
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage();
  const shots = [
    ['sessions', '#/sessions', 'table.sessions tbody tr'],
    ['session', `#/session/${encodeURIComponent(session)}`, '.diff'],
    ['session-diff', `#/session/${encodeURIComponent(session)}?m=${process.env.SHOT_MESSAGE ?? 9}`, '.msg.target'],
    ['search', `#/search?q=${encodeURIComponent(query)}`, '.hit-session'],
    ['files', `#/files?path=${encodeURIComponent(file)}`, '.file-entry'],
    ['activity', '#/activity', '.uplot'],
    [
      'logbook',
      `#/logbook${process.env.SHOT_LOGBOOK ? `?workspace=${encodeURIComponent(process.env.SHOT_LOGBOOK)}` : ''}`,
      'li.event',
    ],
  ];
  const only = process.env.SHOTS ? new Set(process.env.SHOTS.split(',')) : undefined;
  const variants = [
    ['', { width: 1400, height: 1000 }, 'light', () => true],
    ['-dark', { width: 1400, height: 1000 }, 'dark', (name) => VARIED.has(name)],
    ['-phone', { width: 390, height: 844 }, 'light', (name) => VARIED.has(name)],
    ['-phone-dark', { width: 390, height: 844 }, 'dark', (name) => VARIED.has(name)],
  ];
  for (const [suffix, viewport, colorScheme, wanted] of variants) {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme });
    for (const [name, hash, ready] of shots.filter(([name]) => (!only || only.has(name)) && wanted(name))) {
      await page.goto('about:blank');
      await page.goto(url + hash);
      await page.waitForSelector(ready, { timeout: 15000 });
      await page.waitForTimeout(150);
      await page.screenshot({ path: join(out, `${name}${suffix}.png`) });
      console.log(join(out, `${name}${suffix}.png`));
    }
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
