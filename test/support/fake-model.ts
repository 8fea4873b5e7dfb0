// A scripted model server on 127.0.0.1 for the real-client suite, one per API shape. Each request body is
// logged; a request that offers strata's `search` tool and carries no tool result yet gets a call of it,
// any other request gets the final text. It answers at most `maxRequests` and closes itself after `lifetimeMs`.
// `script(steps)` queues the provider contract's answers (429, 500, slow, empty) for the next generations.
import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContractStep } from './llm-provider-contract.js';

export type ApiShape = 'anthropic' | 'responses' | 'gemini' | 'chat';

export interface LoggedRequest {
  method: string;
  path: string;
  body: any;
  /** The raw body text, to look for a word anywhere in what the client sent. */
  text: string;
  /** What the server answered: a call of strata's search, a title, other text, or an error. */
  answered: 'tool' | 'title' | 'text' | 'other';
}

export interface FakeModel {
  url: string;
  requests: LoggedRequest[];
  /** Queues answers for the next generation requests (side requests with a response schema excluded). */
  script(steps: ContractStep[]): void;
  /** Generation requests answered from a script so far. */
  scripted(): number;
  close(): Promise<void>;
}

export interface Script {
  /** The query the model passes to strata's search tool. */
  query: string;
  /** The final answer once the tool result is back. */
  answer: string;
  /** The answer to a client's title-generation request (no tools offered, "title" in the request). */
  title?: string;
  maxRequests?: number;
  lifetimeMs?: number;
  /** Each request is appended here as one JSON line, to read after a failure. */
  logFile?: string;
  /** The client's own tool the model calls instead of strata's search (a shell or file-writing tool). */
  call?: { name: string; args: Record<string, unknown> };
}

/** strata's search tool as each client names it: `search`, `mcp__strata__search`, `strata_search`, ... */
export function isStrataSearch(name: unknown): boolean {
  return typeof name === 'string' && /^(?:(?:mcp_+)?strata_+)?search$/.test(name);
}

interface ToolRef {
  name: string;
  /** Responses API: the namespace grouping a server's MCP tools (Codex: `mcp__strata`). */
  namespace?: string;
}

function toolRefs(shape: ApiShape, body: any): ToolRef[] {
  const tools: any[] = Array.isArray(body?.tools) ? body.tools : [];
  if (shape === 'gemini')
    return tools.flatMap((t) => (t.functionDeclarations ?? []).map((f: any) => ({ name: f.name })));
  if (shape === 'chat') return tools.map((t) => ({ name: t.function?.name ?? t.name }));
  return tools.flatMap((t) =>
    t.type === 'namespace' && Array.isArray(t.tools)
      ? t.tools.map((u: any) => ({ name: u.name, namespace: t.name }))
      : [{ name: t.name }],
  );
}

function isStrataTool(ref: ToolRef): boolean {
  return ref.namespace ? /^mcp_+strata$/.test(ref.namespace) && ref.name === 'search' : isStrataSearch(ref.name);
}

/** True once the conversation carries a tool result: the model has had its answer. */
export function hasToolResult(shape: ApiShape, body: any): boolean {
  if (shape === 'anthropic')
    return (body?.messages ?? []).some(
      (m: any) => Array.isArray(m.content) && m.content.some((c: any) => c.type === 'tool_result'),
    );
  if (shape === 'responses')
    return (Array.isArray(body?.input) ? body.input : []).some((i: any) => /_call_output$/.test(i.type ?? ''));
  if (shape === 'gemini')
    return (body?.contents ?? []).some((c: any) => (c.parts ?? []).some((p: any) => p.functionResponse));
  return (body?.messages ?? []).some((m: any) => m.role === 'tool');
}

/** The text of every tool result the conversation carries (not the rest of the body, which names the session). */
export function toolResultText(shape: ApiShape, body: any): string {
  const flat = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v ?? ''));
  if (shape === 'anthropic')
    return (body?.messages ?? [])
      .flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
      .filter((c: any) => c.type === 'tool_result')
      .map((c: any) => flat(c.content))
      .join('\n');
  if (shape === 'responses')
    return (Array.isArray(body?.input) ? body.input : [])
      .filter((i: any) => /_call_output$/.test(i.type ?? ''))
      .map((i: any) => flat(i.output))
      .join('\n');
  if (shape === 'gemini')
    return (body?.contents ?? [])
      .flatMap((c: any) => c.parts ?? [])
      .filter((p: any) => p.functionResponse)
      .map((p: any) => flat(p.functionResponse.response))
      .join('\n');
  return (body?.messages ?? [])
    .filter((m: any) => m.role === 'tool')
    .map((m: any) => flat(m.content))
    .join('\n');
}

interface Reply {
  tool?: ToolRef & { args: Record<string, unknown> };
  text?: string;
  usage?: { input: number; output: number };
}

function sse(res: ServerResponse, events: Array<[string | null, unknown]>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events)
    res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  res.end();
}

function anthropic(res: ServerResponse, body: any, reply: Reply): void {
  const usage = { input_tokens: reply.usage?.input ?? 10, output_tokens: reply.usage?.output ?? 5 };
  const block = reply.tool
    ? { type: 'tool_use', id: 'toolu_strata1', name: reply.tool.name, input: reply.tool.args }
    : { type: 'text', text: reply.text ?? '' };
  const stop = reply.tool ? 'tool_use' : 'end_turn';
  const message = { id: 'msg_fake', type: 'message', role: 'assistant', model: body?.model ?? 'fake' };
  if (!body?.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...message, content: [block], stop_reason: stop, stop_sequence: null, usage }));
    return;
  }
  const start = reply.tool ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta = reply.tool
    ? { type: 'input_json_delta', partial_json: JSON.stringify(reply.tool.args) }
    : { type: 'text_delta', text: reply.text ?? '' };
  sse(res, [
    ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

function responses(res: ServerResponse, reply: Reply, n: number): void {
  const item = reply.tool
    ? {
        type: 'function_call',
        id: `fc_${n}`,
        call_id: `call_${n}`,
        name: reply.tool.name,
        ...(reply.tool.namespace ? { namespace: reply.tool.namespace } : {}),
        arguments: JSON.stringify(reply.tool.args),
      }
    : {
        type: 'message',
        id: `msg_${n}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: reply.text ?? '', annotations: [] }],
      };
  const response = { id: `resp_${n}`, object: 'response', status: 'completed', output: [item] };
  const [input, output] = [reply.usage?.input ?? 10, reply.usage?.output ?? 5];
  const usage = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
  sse(res, [
    ['response.created', { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } }],
    ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
    ...(reply.text !== undefined
      ? [['response.output_text.delta', { type: 'response.output_text.delta', item_id: item.id, delta: reply.text }]]
      : []),
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
    ['response.completed', { type: 'response.completed', response: { ...response, usage } }],
  ] as Array<[string, unknown]>);
}

function gemini(res: ServerResponse, path: string, reply: Reply): void {
  const part = reply.tool ? { functionCall: { name: reply.tool.name, args: reply.tool.args } } : { text: reply.text };
  const chunk = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: reply.usage?.input ?? 10,
      candidatesTokenCount: reply.usage?.output ?? 5,
      totalTokenCount: (reply.usage?.input ?? 10) + (reply.usage?.output ?? 5),
    },
    modelVersion: 'gemini-2.5-flash',
  };
  if (path.includes(':countTokens')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ totalTokens: 10 }));
  } else if (path.includes('streamGenerateContent')) sse(res, [[null, chunk]]);
  else {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(chunk));
  }
}

function chat(res: ServerResponse, body: any, reply: Reply, n: number): void {
  const base = { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1_700_000_000, model: body?.model };
  const delta = reply.tool
    ? {
        role: 'assistant',
        tool_calls: [
          {
            index: 0,
            id: `call_${n}`,
            type: 'function',
            function: { name: reply.tool.name, arguments: JSON.stringify(reply.tool.args) },
          },
        ],
      }
    : { role: 'assistant', content: reply.text };
  const finish = reply.tool ? 'tool_calls' : 'stop';
  if (!body?.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const message = { role: 'assistant', content: reply.text ?? null, tool_calls: delta.tool_calls };
    res.end(
      JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }] }),
    );
    return;
  }
  const [input, output] = [reply.usage?.input ?? 10, reply.usage?.output ?? 5];
  const usage = { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
  sse(res, [
    [null, { ...base, choices: [{ index: 0, delta, finish_reason: null }] }],
    [null, { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }], usage }],
    [null, '[DONE]'],
  ]);
}

/** A value of a JSON schema's shape, for a client's structured side requests (routing, next-speaker checks). */
function sample(schema: any): unknown {
  const type = String(schema?.type ?? 'object').toLowerCase();
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) return schema.enum[0];
  if (type === 'object')
    return Object.fromEntries(Object.entries(schema?.properties ?? {}).map(([key, value]) => [key, sample(value)]));
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return false;
  return 'n/a';
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A scripted failure in the shape's own error body; the 429 carries Retry-After. */
function failure(res: ServerResponse, shape: ApiShape, step: ContractStep): void {
  const status = step.kind === 'rate-limit' ? 429 : 500;
  const message = status === 429 ? 'Rate limit reached, slow down' : 'The server had an internal error';
  const error =
    shape === 'gemini'
      ? { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' }
      : { message, type: status === 429 ? 'rate_limit_error' : 'server_error' };
  const headers = step.kind === 'rate-limit' ? { 'retry-after': String(step.retryAfterSec) } : {};
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error }));
}

export async function startFakeModel(shape: ApiShape, script: Script): Promise<FakeModel> {
  const requests: LoggedRequest[] = [];
  const maxRequests = script.maxRequests ?? 60;
  const steps: ContractStep[] = [];
  let scripted = 0;
  const server = createServer(async (req, res) => {
    const text = await readBody(req);
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {}
    const path = req.url ?? '/';
    const logged: LoggedRequest = { method: req.method ?? 'GET', path, body, text, answered: 'other' };
    requests.push(logged);
    if (script.logFile) appendFileSync(script.logFile, JSON.stringify({ method: logged.method, path, body }) + '\n');
    const generates = /messages$|\/responses$|generatecontent|completions$/i.test(path.split('?')[0]!);
    if (requests.length > maxRequests || req.method !== 'POST' || !generates) {
      res.writeHead(requests.length > maxRequests ? 429 : 404, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"not scripted"}}');
      return;
    }
    const wanted = script.call?.name;
    const tool = toolRefs(shape, body).find(wanted ? (ref) => ref.name === wanted : isStrataTool);
    const title = script.title && !tool && /\btitle\b/i.test(text) ? script.title : undefined;
    const schema = body?.generationConfig?.responseJsonSchema ?? body?.generationConfig?.responseSchema;
    const step = schema || path.includes(':countTokens') ? undefined : steps.shift();
    const usage = step?.kind === 'ok' ? { input: step.inputTokens ?? 12, output: step.outputTokens ?? 5 } : undefined;
    if (step) {
      scripted++;
      if (step.kind === 'rate-limit' || step.kind === 'server-error') return failure(res, shape, step);
      const delay = step.kind === 'slow' ? step.delayMs : step.kind === 'ok' ? (step.delayMs ?? 0) : 0;
      if (delay > 0) await new Promise((wait) => setTimeout(wait, delay));
      if (res.destroyed) return;
    }
    const reply: Reply = step
      ? { text: step.kind === 'empty' ? '' : (step.text ?? 'late'), usage }
      : tool && !hasToolResult(shape, body)
        ? { tool: { ...tool, args: script.call?.args ?? { query: script.query } } }
        : { text: schema ? JSON.stringify(sample(schema)) : (title ?? script.answer) };
    logged.answered = reply.tool ? 'tool' : title && !step ? 'title' : 'text';
    if (shape === 'anthropic') anthropic(res, body, reply);
    else if (shape === 'responses') responses(res, reply, requests.length);
    else if (shape === 'gemini') gemini(res, path, reply);
    else chat(res, body, reply, requests.length);
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const close = () =>
    new Promise<void>((resolveClose) => {
      server.closeAllConnections();
      server.close(() => resolveClose());
    });
  setTimeout(close, script.lifetimeMs ?? 300_000).unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (next) => void steps.splice(0, steps.length, ...next),
    scripted: () => scripted,
    close,
  };
}
