// Owns serving the bundled front end: each file read once, named by a hash of its content, compressed with
// brotli or gzip when the client accepts it. index.html asks for `/app.js?v=<hash>`: those URLs are cached
// for good, since a rebuilt file gets a new hash; index.html itself is revalidated (ETag) on every load.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

interface Asset {
  file: string;
  type: string;
}

const FILES: Record<string, Asset> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
  '/boot.js': { file: 'boot.js', type: 'text/javascript; charset=utf-8' },
};

interface Loaded {
  type: string;
  hash: string;
  bodies: Map<string, Buffer>;
}

export interface AssetResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

const hashOf = (body: Buffer) => createHash('sha256').update(body).digest('base64url').slice(0, 16);

/** The first of br and gzip that an Accept-Encoding header allows (`;q=0` refuses one), else identity. */
export function chooseEncoding(accept: string | undefined): 'br' | 'gzip' | 'identity' {
  const allowed = new Set(
    (accept ?? '')
      .split(',')
      .map((part) =>
        part
          .trim()
          .toLowerCase()
          .split(/\s*;\s*/),
      )
      .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q))
      .map(([name]) => name),
  );
  return allowed.has('br') ? 'br' : allowed.has('gzip') ? 'gzip' : 'identity';
}

export class AssetServer {
  private readonly loaded = new Map<string, Loaded>();

  constructor(private readonly dir: string) {}

  private load(file: string): Loaded {
    let asset = this.loaded.get(file);
    if (asset) return asset;
    let body = readFileSync(join(this.dir, file));
    if (file === 'index.html') {
      // The page names its script and styles by content hash, so those are cached until they change.
      const html = body
        .toString('utf8')
        .replace('"/app.js"', `"/app.js?v=${this.load('app.js').hash}"`)
        .replace('"/app.css"', `"/app.css?v=${this.load('app.css').hash}"`)
        .replace('"/boot.js"', `"/boot.js?v=${this.load('boot.js').hash}"`);
      body = Buffer.from(html);
    }
    const type = Object.values(FILES).find((a) => a.file === file)!.type;
    asset = { type, hash: hashOf(body), bodies: new Map([['identity', body]]) };
    this.loaded.set(file, asset);
    return asset;
  }

  private body(asset: Loaded, encoding: 'br' | 'gzip' | 'identity'): Buffer {
    let body = asset.bodies.get(encoding);
    if (!body) {
      const plain = asset.bodies.get('identity')!;
      // Compressed on a fresh server's first page load: brotli 5 costs a seventh of 9's time, 1% larger.
      body =
        encoding === 'br'
          ? brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
          : gzipSync(plain, { level: 9 });
      asset.bodies.set(encoding, body);
    }
    return body;
  }

  /** The response for `pathname` (undefined: not an asset); throws when the bundle is not built. */
  respond(url: URL, headers: { 'accept-encoding'?: string; 'if-none-match'?: string }): AssetResponse | undefined {
    const known = Object.hasOwn(FILES, url.pathname) ? FILES[url.pathname] : undefined;
    if (!known) return undefined;
    const asset = this.load(known.file);
    const etag = `"${asset.hash}"`;
    const versioned = url.searchParams.get('v') === asset.hash;
    const cache = versioned ? 'public, max-age=31536000, immutable' : 'no-cache';
    const common = { 'Cache-Control': cache, ETag: etag, Vary: 'Accept-Encoding' };
    const known304 = (headers['if-none-match'] ?? '').split(',').map((t) => t.trim());
    if (known304.includes(etag)) return { status: 304, headers: common, body: '' };
    const encoding = chooseEncoding(headers['accept-encoding']);
    return {
      status: 200,
      headers: {
        ...common,
        'Content-Type': asset.type,
        ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }),
      },
      body: this.body(asset, encoding),
    };
  }
}
