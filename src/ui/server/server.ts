// Owns the HTTP server of `strata ui`: loopback only, GET/HEAD only, the DNS-rebinding guard on every
// request, the JSON API under /api/ and the bundled front end (dist/ui/web) for everything else. Nothing
// it serves writes: the store is only read, and the front end only fetches.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { handleApi, type ApiContext } from './api.js';
import { AssetServer } from './assets.js';
import type { RemoteApi } from './remote-api.js';
import { refusal } from './host-guard.js';
import { StrataError } from '../../shared/errors.js';
import { redactOutgoing, rescanPending } from '../../core/redaction/outgoing.js';

const LOOPBACK = '127.0.0.1';

interface ServerSettings {
  /** 0 (default): a free port chosen by the system. */
  port?: number;
  /** Folder holding index.html, app.js and app.css (default: the bundle beside this module). */
  assetsDir?: string;
}

/** A local store's API (`db`), or `ui --remote`'s answered from a team store (remote-api.ts). */
export type UiServerOptions = ServerSettings & ((ApiContext & { remoteApi?: undefined }) | { remoteApi: RemoteApi });

export interface UiServer {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

/** The front end's bundle folder: dist/ui/web beside dist/ui/server. */
export function defaultAssetsDir(): string {
  return fileURLToPath(new URL('../web/', import.meta.url));
}

const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src " +
    "'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};
// API answers and errors are never cached: the store changes under them. Assets say their own (assets.ts).
const NO_STORE = { 'Cache-Control': 'no-store' };

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, head: boolean): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    ...NO_STORE,
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(head ? undefined : body);
}

function sendJson(res: ServerResponse, status: number, value: unknown, head: boolean): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value), head);
}

/** `/api/<name>`: from the local store, or from a team store with `ui --remote`. */
async function answerApi(
  options: UiServerOptions,
  name: string,
  params: URLSearchParams,
  res: ServerResponse,
  head: boolean,
): Promise<void> {
  if (options.remoteApi) {
    const { status, body } = await options.remoteApi(name, params);
    return sendJson(res, status, body, head);
  }
  const { status, body } = await handleApi(options, name, params);
  // While stored texts wait for a scan with newer secret rules, answers are redacted with them (and say so).
  if (!rescanPending(options.db)) return sendJson(res, status, body, head);
  res.setHeader('X-Strata-Rescan', 'pending');
  sendJson(res, status, redactOutgoing(body), head);
}

/** Handles one request (exported for tests that call it without a socket). */
function handleRequest(
  options: UiServerOptions,
  assets: AssetServer,
  port: number,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const refused = refusal(req.headers, port);
  if (refused) return send(res, 403, 'text/plain; charset=utf-8', `403 forbidden: ${refused}\n`, false);
  const head = req.method === 'HEAD';
  if (req.method !== 'GET' && !head) {
    res.setHeader('Allow', 'GET, HEAD');
    return send(res, 405, 'text/plain; charset=utf-8', '405 method not allowed: this server only reads\n', false);
  }
  // The request target is a path ("//x" included, which URL would read as a host); any other form is refused.
  const target = req.url ?? '/';
  if (!target.startsWith('/')) return send(res, 400, 'text/plain; charset=utf-8', '400 bad request\n', head);
  let url: URL;
  try {
    url = new URL(`http://${LOOPBACK}:${port}${target}`);
  } catch {
    return send(res, 400, 'text/plain; charset=utf-8', '400 bad request\n', head);
  }
  if (url.pathname.startsWith('/api/')) {
    void answerApi(options, url.pathname.slice(5), url.searchParams, res, head).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) }, head);
    });
    return;
  }
  try {
    const asset = assets.respond(url, req.headers);
    if (!asset) return send(res, 404, 'text/plain; charset=utf-8', '404 not found\n', head);
    res.writeHead(asset.status, { ...SECURITY_HEADERS, ...asset.headers, 'Content-Length': asset.body.length });
    res.end(head ? undefined : asset.body);
  } catch {
    send(res, 500, 'text/plain; charset=utf-8', '500: the front end is not built; run npm run build\n', head);
  }
}

/** Starts the server on 127.0.0.1 and resolves once it listens. */
export function startUiServer(options: UiServerOptions): Promise<UiServer> {
  return new Promise((resolve, reject) => {
    let port = 0;
    // Read once per server and kept with their compressed forms (a rebuilt bundle is served after a restart).
    const assets = new AssetServer(options.assetsDir ?? defaultAssetsDir());
    const server = createServer((req, res) => {
      try {
        handleRequest(options, assets, port, req, res);
      } catch (error) {
        if (!res.headersSent)
          sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) }, false);
      }
    });
    server.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new StrataError('USAGE', `port ${options.port} is in use; choose another with --port or omit it`)
          : error,
      );
    });
    server.listen(options.port ?? 0, LOOPBACK, () => {
      port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://${LOOPBACK}:${port}/`,
        port,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
