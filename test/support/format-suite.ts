// One describe block per real client whose files strata only reads (no strata config in it): the client
// runs headless in a sandbox HOME against the fake model, which answers with one call of the client's own
// tool, then with text; strata ingests that HOME and must read the session, its messages and the tool call.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_BIN, clientVersion, makeSandbox, run, type Sandbox, strataJson } from './client-harness.js';
import { type FakeModel, startFakeModel } from './fake-model.js';

export const FORMAT_PROMPT = 'Write down what we found: the cache keeps its index in memory only.';
export const FORMAT_ANSWER = 'Noted in notes.md: the index lives in memory only.';
export const NOTE = 'The cache keeps its index in memory only.';
const RUN_TIMEOUT = 90_000;

export interface FormatSpec {
  name: string;
  /** strata's agent id for the client's files. */
  agent: string;
  bin: string;
  /** The client's environment: the fake model's URL and key, telemetry, updates and network off. */
  env(server: FakeModel, sandbox: Sandbox): Record<string, string>;
  /** The client's settings files in the sandbox HOME. */
  setup?(sandbox: Sandbox, server: FakeModel): void;
  args(sandbox: Sandbox): string[];
  /** The client's tool the model calls, and its arguments (they write `notes.md` in the project). */
  tool(sandbox: Sandbox): { name: string; args: Record<string, unknown> };
  /** The record types of this version the adapter counts as skipped (`skippedRecords` of the ingest report). */
  skipped: string[];
}

/** Skipped with one line when the client is not installed; under CI its absence fails the run. */
export function describeFormat(spec: FormatSpec): void {
  const installed = existsSync(join(CLIENT_BIN, spec.bin));
  if (!installed) {
    const missing = `${spec.bin} is not in test/clients/node_modules (npm install --prefix test/clients)`;
    if (process.env.CI)
      it(`${spec.name} is installed`, () => {
        throw new Error(missing);
      });
    else console.log(`clients formats e2e: ${spec.name} skipped, ${missing}`);
  }
  describe.skipIf(!installed)(`${spec.name} (its own files)`, () => {
    let sandbox: Sandbox;
    let server: FakeModel;
    let session: any;
    let report: any;

    afterAll(async () => {
      await server?.close();
    });

    it(`runs headless and calls its ${spec.bin} tool`, async () => {
      sandbox = await makeSandbox(`${spec.agent}-format`);
      const call = spec.tool(sandbox);
      const logFile = join(sandbox.root, 'requests.jsonl');
      const script = { query: '', answer: FORMAT_ANSWER, call, logFile, lifetimeMs: RUN_TIMEOUT + 60_000 };
      server = await startFakeModel('chat', script);
      Object.assign(sandbox.env, spec.env(server, sandbox));
      await clientVersion(sandbox, spec.bin);
      spec.setup?.(sandbox, server);
      const started = Date.now();
      const result = await run(join(CLIENT_BIN, spec.bin), spec.args(sandbox), {
        env: sandbox.env,
        cwd: sandbox.project,
        timeoutMs: RUN_TIMEOUT,
      });
      console.log(`client ${spec.bin}: ran in ${Date.now() - started} ms`);
      if (process.env.STRATA_E2E_DEBUG) console.log(result.stdout, result.stderr);
      const status = result.timedOut ? 'timed out' : `exit ${result.code}`;
      expect(result.code, `${spec.bin} failed (${status}): ${result.stderr.slice(-2000)}`).toBe(0);
      const offered = server.requests.some((r) => r.answered === 'tool');
      expect(offered, `${spec.bin} never offered its ${call.name} tool to the model`).toBe(true);
      expect(readFileSync(join(sandbox.project, 'notes.md'), 'utf8'), 'the tool call did not run').toBe(`${NOTE}\n`);
    });

    it('is ingested from the sandbox HOME as one session with its project, title and prompt', async () => {
      report = await strataJson(sandbox, ['ingest', '--agent', spec.agent]);
      const rows = await strataJson(sandbox, ['index', '--agent', spec.agent]);
      const sessions = Array.isArray(rows) ? rows : rows.sessions;
      if (sessions.length === 0)
        throw new Error(`${spec.name}: the run's files are not read: their format drifted from the adapter's`);
      expect(report, JSON.stringify(report)).toMatchObject({ filesIngested: 1, filesFailed: 0, malformedLines: 0 });
      expect(sessions).toHaveLength(1);
      session = sessions[0];
      expect(session).toMatchObject({ project: sandbox.project, title: FORMAT_PROMPT, prompts: 1 });
    });

    it('records the edit and the tokens of both replies in the statistics', async () => {
      expect(session).toMatchObject({ filesTouched: 1, linesAdded: 1, locations: ['notes.md'] });
      const { tokens } = await strataJson(sandbox, ['stats']);
      // The fixture session's usage is 10 in, 10 out; the fake model reports 10 in, 5 out per reply.
      expect({ input: tokens.input - 10, output: tokens.output - 10 }).toEqual({ input: 20, output: 10 });
    });

    it('skips only the record types known for this version (a new one is format drift to look at)', () => {
      expect(Object.keys(report.skippedRecords).sort()).toEqual([...spec.skipped].sort());
    });

    it('reads the prompt, the tool call with its input and result, and the answer in order', async () => {
      const { messages } = await strataJson(sandbox, ['read', session.id, '--full', '--show', 'tool:*:result']);
      const blocks = messages.flatMap((m: any) => m.blocks.map((b: any) => ({ ...b, n: m.n, role: m.role })));
      const text = (b: any) => `${b.role}:${b.kind}:${b.toolName ?? ''}`;
      expect(blocks.map(text)).toEqual([
        'user:text:',
        `assistant:tool_call:${spec.tool(sandbox).name}`,
        `tool:tool_result:${spec.tool(sandbox).name}`,
        'assistant:text:',
      ]);
      const [prompt, call, result, answer] = blocks;
      expect(prompt.text).toBe(FORMAT_PROMPT);
      expect(call.text).toContain(join(sandbox.project, 'notes.md'));
      expect(result).toMatchObject({ toolCallId: call.toolCallId, isError: false });
      expect(result.text).toContain('notes.md');
      expect(answer.text).toBe(FORMAT_ANSWER);
    });
  });
}
