// The front end's files over HTTP: brotli or gzip as the client accepts, named by content hash and then cached
// for good, revalidated by ETag otherwise; API answers stay uncached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdirSync, copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { openStore, type Store } from '../../store/db.js';
import { chooseEncoding } from './assets.js';
import { startUiServer, type UiServer } from './server.js';
import { tempDir } from '../../../test/support/paths.js';

let dir: string;
let store: Store;
let server: UiServer;
const APP_JS = 'console.log("strata");\n'.repeat(400);

beforeAll(async () => {
  dir = tempDir('strata-ui-assets-');
  const assets = join(dir, 'web');
  mkdirSync(assets);
  copyFileSync(join(import.meta.dirname, '../web/index.html'), join(assets, 'index.html'));
  writeFileSync(join(assets, 'app.js'), APP_JS);
  writeFileSync(join(assets, 'boot.js'), 'void 0;\n');
  writeFileSync(join(assets, 'app.css'), 'body { margin: 0 }\n'.repeat(50));
  store = openStore(join(dir, 'strata.db'));
  server = await startUiServer({ db: store.db, home: null, assetsDir: assets });
});
afterAll(async () => {
  await server.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: Buffer; headers: Record<string, string | undefined> }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            headers: res.headers as Record<string, string | undefined>,
          }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe('assets', () => {
  it('sends brotli or gzip as accepted, and names the script by its content hash', async () => {
    const index = await get('/', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(index.headers['content-encoding']).toBe('br');
    expect(index.headers['cache-control']).toBe('no-cache');
    const html = brotliDecompressSync(index.body).toString();
    const version = /\/app\.js\?v=([\w-]+)/.exec(html)?.[1];
    expect(version).toBeDefined();
    expect(html).toMatch(/\/app\.css\?v=[\w-]+/);

    const js = await get(`/app.js?v=${version}`, { 'Accept-Encoding': 'gzip' });
    expect(js.headers['content-encoding']).toBe('gzip');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers.vary).toBe('Accept-Encoding');
    expect(js.body.length).toBeLessThan(APP_JS.length / 10);
    expect(gunzipSync(js.body).toString()).toBe(APP_JS);

    const plain = await get('/app.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.body.toString()).toBe(APP_JS);
  });

  it('answers 304 to a known ETag and keeps API answers uncached', async () => {
    const first = await get('/app.css');
    const again = await get('/app.css', { 'If-None-Match': first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const api = await get('/api/sessions', { 'Accept-Encoding': 'br' });
    expect(api.headers['cache-control']).toBe('no-store');
    expect(api.headers['content-security-policy']).toMatch(/script-src 'self'/);
  });

  it('reads Accept-Encoding with q-values', () => {
    expect(chooseEncoding('br;q=0, gzip;q=0.8')).toBe('gzip');
    expect(chooseEncoding('identity')).toBe('identity');
    expect(chooseEncoding(undefined)).toBe('identity');
    expect(chooseEncoding('BR')).toBe('br');
  });
});
