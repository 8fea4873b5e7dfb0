// A real OpenAI-compatible `/v1/embeddings` server on 127.0.0.1 for tests: deterministic vectors where
// words of one concept (a small table) share a dimension, so a paraphrase lands near its original;
// scripted failures (429 with Retry-After, 500) answer the next requests first.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

const DIM = 64;
const CONCEPTS: Record<string, string> = {
  crash: 'failure',
  crashed: 'failure',
  crashing: 'failure',
  restart: 'failure',
  restarting: 'failure',
  restarts: 'failure',
  died: 'failure',
  loop: 'failure',
  container: 'box',
  pod: 'box',
  docker: 'box',
  kubernetes: 'box',
  cache: 'memo',
  caching: 'memo',
  memoize: 'memo',
  redis: 'memo',
};

function slot(word: string): number {
  let h = 2166136261;
  for (const c of CONCEPTS[word] ?? word) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return (h >>> 0) % DIM;
}

export function conceptVector(text: string): number[] {
  const v = new Array<number>(DIM).fill(0);
  for (const w of text.toLowerCase().match(/[a-z]{3,}/g) ?? []) v[slot(w)]! += 1;
  v[DIM - 1]! += 0.01; // never the zero vector
  return v;
}

export type ScriptedFailure = { status: 429; retryAfterSec?: number } | { status: 500 };

export interface EmbeddingServer {
  url: string;
  requests: Array<{ model: string; input: string[]; authorization?: string }>;
  fail(...failures: ScriptedFailure[]): void;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `port`: listen where a closed server listened (a client configured with its URL finds it again). */
export async function startEmbeddingServer(port = 0): Promise<EmbeddingServer> {
  const failures: ScriptedFailure[] = [];
  const requests: EmbeddingServer['requests'] = [];
  const server = createServer(async (req, res) => {
    const text = await body(req);
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
      res.writeHead(404).end('{"error":"not found"}');
      return;
    }
    const parsed = JSON.parse(text) as { model: string; input: string[] | string };
    const input = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
    requests.push({
      model: parsed.model,
      input,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    });
    const failure = failures.shift();
    if (failure) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (failure.status === 429 && failure.retryAfterSec !== undefined)
        headers['retry-after'] = String(failure.retryAfterSec);
      res.writeHead(failure.status, headers).end('{"error":{"message":"scripted failure"}}');
      return;
    }
    // Answered in reverse order: clients must place vectors by `index`.
    const data = input.map((t, index) => ({ object: 'embedding', index, embedding: conceptVector(t) })).reverse();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ object: 'list', model: parsed.model, data, usage: { prompt_tokens: 0, total_tokens: 0 } }),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/v1`,
    requests,
    fail: (...f) => void failures.push(...f),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
