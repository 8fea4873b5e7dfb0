// Starts `strata ui` on a store of the real fixtures plus the ui fixture, and Debian's chromium driven by
// playwright-core, for the browser tests.
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { FIXTURES, runCli, spawnCli, tempDir } from './cli.js';
import { writeUiFixture } from './ui-fixture.js';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
// Under CI the browser tests must run: a missing chromium fails them instead of skipping.
export const RUN_BROWSER = existsSync(CHROMIUM) || Boolean(process.env.CI);
if (!RUN_BROWSER)
  console.warn(`ui-browser tests skipped: ${CHROMIUM} not found (apt-get install chromium, or set CHROMIUM=/path)`);

export const REAL_SESSION = '1fb5e404-604d-4a2b-baf1-3beb42a67371';

export interface UiHarness {
  dir: string;
  env: Record<string, string>;
  url: string;
  browser: BrowserContext;
  servers: ChildProcess[];
}

export function startUi(serverEnv: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(['ui'], serverEnv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve({ url: line.trim(), child });
    });
    child.on('exit', (code) => reject(new Error(`strata ui exited with ${code}`)));
    child.on('error', reject);
  });
}

/**
 * Copies into `strataHome` a store of the real fixtures, ingested once per test run (under the run's own
 * TMPDIR): every browser file starts from the same one. Built aside and renamed into place, so a worker
 * never copies a half-built store; the ingest that follows computes the listing for its own HOME.
 */
async function copyFixtureStore(strataHome: string): Promise<void> {
  const seed = join(tmpdir(), 'strata-ui-fixture-store');
  if (!existsSync(seed)) {
    const building = tempDir('strata-ui-fixture-build-');
    const r = await runCli(['ingest', FIXTURES], { STRATA_HOME: join(building, 'home'), HOME: building });
    expect(r.code, r.stderr).toBe(0);
    try {
      renameSync(join(building, 'home'), seed);
    } catch {
      // Another worker's store is in place already: the same one.
    }
    rmSync(building, { recursive: true, force: true });
  }
  cpSync(seed, strataHome, { recursive: true });
}

/** The fixtures' store plus the ui fixture, `prepare` run on it, then the server and the browser. */
export async function startHarness(
  prefix: string,
  prepare: (env: Record<string, string>) => Promise<void> = async () => {},
): Promise<UiHarness> {
  const dir = tempDir(prefix);
  const env = { STRATA_HOME: join(dir, 'home'), HOME: dir, TZ: 'UTC', NO_COLOR: '1' };
  await copyFixtureStore(env.STRATA_HOME);
  const r = await runCli(['ingest', writeUiFixture(dir)], env);
  expect(r.code, r.stderr).toBe(0);
  await prepare(env);
  const { url, child } = await startUi(env);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
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
  return { dir, env, url, browser, servers: [child] };
}

export async function stopHarness(ui: UiHarness | undefined): Promise<void> {
  if (!ui) return;
  await ui.browser.close();
  for (const server of ui.servers) {
    server.removeAllListeners('exit');
    server.kill('SIGTERM');
  }
  rmSync(ui.dir, { recursive: true, force: true });
}

/** Opens a page and collects console errors and uncaught exceptions. */
export async function openPage(
  ui: UiHarness,
  hash: string,
  ready: string,
  base = ui.url,
): Promise<{ page: Page; errors: string[] }> {
  const page = await ui.browser.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(base + hash);
  await page.waitForSelector(ready, { timeout: 120_000 });
  return { page, errors };
}

/** A test file's harness: started before its tests, stopped after; `open` opens a page on it. */
export function useUiHarness(
  prefix: string,
  prepare?: (env: Record<string, string>) => Promise<void>,
): {
  readonly harness: UiHarness;
  readonly url: string;
  readonly browser: BrowserContext;
  open(hash: string, ready: string, base?: string): Promise<{ page: Page; errors: string[] }>;
} {
  let ui: UiHarness | undefined;
  beforeAll(async () => {
    if (RUN_BROWSER) ui = await startHarness(prefix, prepare);
  });
  afterAll(() => stopHarness(ui));
  return {
    get harness() {
      return ui!;
    },
    get url() {
      return ui!.url;
    },
    get browser() {
      return ui!.browser;
    },
    open: (hash, ready, base) => openPage(ui!, hash, ready, base),
  };
}
