// Test helper: a real HTTP server on 127.0.0.1 (random port) speaking the Anthropic Messages and the
// OpenAI Chat Completions wire formats, answering from a script of steps, counting requests and the
// most requests in flight at once.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContractStep } from './llm-provider-contract.js';

type ScriptStep = ContractStep;

export interface ScriptedServer {
  url: string;
  script(steps: ScriptStep[], fallback?: ScriptStep): void;
  requests: Array<{ path: string; body: Record<string, unknown> }>;
  maxInFlight(): number;
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  let steps: ScriptStep[] = [];
  let fallback: ScriptStep = { kind: 'ok', text: 'OK' };
  let inFlight = 0;
  let maxInFlight = 0;
  const requests: ScriptedServer['requests'] = [];
  const server = createServer((req, res) => {
    void handle(req, res);
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const path = req.url ?? '';
    requests.push({ path, body });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const step = steps.shift() ?? fallback;
    const openai = path.includes('/chat/completions');
    try {
      if (step.kind === 'rate-limit')
        return send(res, 429, errorBody(openai, 'rate_limit_error', 'slow down'), {
          'retry-after': String(step.retryAfterSec),
        });
      if (step.kind === 'server-error') return send(res, 500, errorBody(openai, 'api_error', 'internal error'));
      const delay = step.kind === 'slow' ? step.delayMs : step.kind === 'ok' ? (step.delayMs ?? 0) : 0;
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      if (res.destroyed) return;
      const text = step.kind === 'empty' ? '' : (step.text ?? 'late');
      const usage =
        step.kind === 'ok'
          ? { input: step.inputTokens ?? 12, output: step.outputTokens ?? 5 }
          : { input: 12, output: 0 };
      return send(
        res,
        200,
        openai ? openAiBody(String(body.model), text, usage) : anthropicBody(String(body.model), text, usage),
      );
    } finally {
      inFlight--;
    }
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    script(next, otherwise) {
      steps = [...next];
      if (otherwise) fallback = otherwise;
    },
    requests,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function errorBody(openai: boolean, type: string, message: string): unknown {
  return openai ? { error: { message, type, code: null } } : { type: 'error', error: { type, message } };
}

function anthropicBody(model: string, text: string, usage: { input: number; output: number }): unknown {
  return {
    id: 'msg_test',
    type: 'message',
    role: 'assistant',
    model,
    content: text === '' ? [] : [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

function openAiBody(model: string, text: string, usage: { input: number; output: number }): unknown {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  };
}
