// Owns the DNS-rebinding guard: a page on another site can make a browser send requests to 127.0.0.1
// under its own host name, so a request is served only when its Host (and its Origin, when sent) name
// this server itself.
import type { IncomingHttpHeaders } from 'node:http';

/** The Host header values this server answers to on `port`. */
function ownHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/** Why a request must be refused, or undefined when it may be served. */
export function refusal(headers: IncomingHttpHeaders, port: number): string | undefined {
  const hosts = ownHosts(port);
  const host = headers.host?.toLowerCase();
  if (!host || !hosts.has(host)) return `foreign Host header: ${headers.host ?? '(none)'}`;
  const origin = headers.origin;
  if (origin !== undefined) {
    let originHost: string | undefined;
    try {
      const url = new URL(origin);
      originHost = url.protocol === 'http:' ? url.host.toLowerCase() : undefined;
    } catch {
      originHost = undefined;
    }
    if (!originHost || !hosts.has(originHost)) return `foreign Origin header: ${origin}`;
  }
  return undefined;
}
