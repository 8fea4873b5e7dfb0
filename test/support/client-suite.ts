// One describe block per real client, the same five checks for each: it runs headless with strata's own
// config, the SessionStart context reaches the model, strata's `search` returns the stored fixture session,
// the run's transcript is stored with project, title and prompt count, and no run finds its own or an echo.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CLIENT_BIN,
  CLIENTS_INSTALLED,
  clientVersion,
  FIXTURE_WORD,
  makeSandbox,
  RUN_PROMPT,
  type RunResult,
  run,
  type Sandbox,
  strataJson,
} from './client-harness.js';
import { type ApiShape, type FakeModel, type LoggedRequest, startFakeModel, toolResultText } from './fake-model.js';

export const ANSWER = 'The cache keeps its index in memory only.';
const RUN_TIMEOUT = 180_000;

/** The checks a client cannot pass before a fix lands: run with `it.fails` until then. */
export type Check = 'session-start' | 'search' | 'stored' | 'no-self' | 'no-echo' | 'title-request';

export interface ClientSpec {
  /** The describe title and the sandbox's name. */
  name: string;
  /** strata's agent id for the client's transcripts. */
  agent: string;
  shape: ApiShape;
  bin: string;
  /** The client's environment: the fake model's URL and key, telemetry and update checks off. */
  env(server: FakeModel, sandbox: { root: string; home: string }): Record<string, string>;
  /** strata's own commands (and the user's approval or trust step the docs name). */
  setup(sandbox: Sandbox, server: FakeModel): Promise<void>;
  /** The headless run's arguments (the prompt is RUN_PROMPT). */
  args: string[];
  /** False where the client has no SessionStart hook. */
  sessionStart: boolean;
  /** The title the client gives its session (asked of the model), where it does not take the prompt. */
  title?: string;
  /** Checks known to fail until an open fix is merged (see the suite's header). */
  failing?: Check[];
}

interface Run {
  result: RunResult;
  requests: LoggedRequest[];
}

/** The tool results of strata's search in one run's requests. */
function searchResults(spec: ClientSpec, requests: LoggedRequest[]): string {
  return requests.map((r) => toolResultText(spec.shape, r.body)).join('\n');
}

/**
 * The short ids (8 characters) of the sessions strata's search answered with: `sessions[].id` of the JSON
 * result (possibly escaped once more), or the rows of the text result a client passes on instead. Two
 * OpenCode sessions can share a short id (`ses_` and 4 characters): then a hit is the echo or the caller.
 */
function found(results: string): string[] {
  const json = [...results.matchAll(/\\?"id\\?"\s*:\s*\\?"([^"\\]+)/g)].map((m) => m[1]!);
  const text = [...results.matchAll(/(?:^|\n|\\n|>)\s*([\w-]{8}) {2}\d{4}-\d\d-\d\d/g)].map((m) => m[1]!);
  return [...new Set([...json, ...text].map(short))];
}

function short(id: string): string {
  return id.slice(0, 8);
}

export function describeClient(spec: ClientSpec): void {
  const check = (name: Check, title: string, body: () => Promise<void> | void) =>
    spec.failing?.includes(name) ? it.fails(title, body) : it(title, body);

  describe.skipIf(!CLIENTS_INSTALLED)(spec.name, () => {
    let sandbox: Sandbox;
    let server: FakeModel;
    const runs: Run[] = [];
    /** The store's rows since the last run: the checks between two runs read the same store. */
    let rows: Promise<any[]> | undefined;

    async function runClient(): Promise<Run> {
      rows = undefined;
      const before = server.requests.length;
      const result = await run(join(CLIENT_BIN, spec.bin), spec.args, {
        env: sandbox.env,
        cwd: sandbox.project,
        timeoutMs: RUN_TIMEOUT,
      });
      const done = { result, requests: server.requests.slice(before) };
      runs.push(done);
      if (process.env.STRATA_E2E_DEBUG) console.log(result.stdout, result.stderr);
      if (result.code !== 0 || result.timedOut)
        throw new Error(
          `${spec.bin} failed (${result.timedOut ? 'timed out' : `exit ${result.code}`}); ` +
            `STRATA_E2E_DEBUG=<dir> keeps the requests: ${result.stderr.slice(-2000)}`,
        );
      return done;
    }

    /** The run's sessions in the store, the fixture left out (one `strata index` per run). */
    function stored(): Promise<any[]> {
      rows ??= strataJson(sandbox, ['index', '--agent', spec.agent]).then((listed) =>
        (Array.isArray(listed) ? listed : listed.sessions).filter((s: any) => s.id !== sandbox.fixtureSession),
      );
      return rows;
    }

    afterAll(async () => {
      await server?.close();
    });

    it(`runs headless with strata's own config (${spec.bin})`, async () => {
      sandbox = await makeSandbox(spec.name.toLowerCase().replace(/\W+/g, '-'));
      // STRATA_E2E_DEBUG=<dir> keeps the sandbox with this request log, and prints each run's output.
      const logFile = join(sandbox.root, 'requests.jsonl');
      const script = { query: FIXTURE_WORD, answer: ANSWER, title: spec.title, logFile };
      server = await startFakeModel(spec.shape, { ...script, lifetimeMs: 2 * RUN_TIMEOUT + 120_000 });
      Object.assign(sandbox.env, spec.env(server, sandbox));
      await clientVersion(sandbox, spec.bin);
      await spec.setup(sandbox, server);
      const first = await runClient();
      expect(
        first.requests.some((r) => r.answered === 'tool'),
        `${spec.bin} never offered strata's search tool to the model`,
      ).toBe(true);
    });

    if (spec.sessionStart)
      check('session-start', 'hands the SessionStart context to the model', () => {
        const text = runs[0]!.requests.find((r) => r.answered === 'tool')?.text ?? '';
        const heading = /# (?:Project logbook|Latest sessions of this project) \(strata\)/.test(text);
        expect(heading, "the model's first request has no strata SessionStart context").toBe(true);
        expect(text.includes(FIXTURE_WORD), "the SessionStart context does not name the fixture's title").toBe(true);
      });

    check('search', "returns the stored session from the model's search call", () => {
      const results = searchResults(spec, runs[0]!.requests);
      expect(results, 'no request carried the result of the search call').not.toBe('');
      expect(found(results), `the fixture session is not in: ${results}`).toContain(short(sandbox.fixtureSession));
    });

    it("reads the transcript the client wrote (its format is the adapter's)", async () => {
      const rows = await stored();
      if (rows.length === 0)
        throw new Error(
          `${spec.name}: the run's transcript is not in the store: its format drifted from the adapter's`,
        );
    });

    check('stored', 'stores the transcript with its project, title and one prompt', async () => {
      const rows = await stored();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ project: sandbox.project, title: spec.title ?? RUN_PROMPT, prompts: 1 });
    });

    if (spec.title)
      check('title-request', "keeps strata's context out of the client's title request", () => {
        const request = runs[0]!.requests.find((r) => r.answered === 'title');
        expect(request, 'the client asked the model for no title').toBeDefined();
        expect(request!.text.includes('(strata)'), 'the title request carries the SessionStart context').toBe(false);
      });

    check('no-self', 'does not return the calling session from its own search', async () => {
      const [self] = await stored();
      expect(self, 'the run is not stored').toBeDefined();
      const results = searchResults(spec, runs[0]!.requests);
      expect(found(results), `the run found itself in: ${results}`).not.toContain(short(self.id));
    });

    check('no-echo', "does not find the first run's echo in a second run", async () => {
      const [first] = await stored();
      expect(first, 'the first run is not stored').toBeDefined();
      const second = await runClient();
      const results = searchResults(spec, second.requests);
      expect(found(results), `no fixture session in: ${results}`).toContain(short(sandbox.fixtureSession));
      expect(found(results), `the first run's echo in: ${results}`).not.toContain(short(first.id));
    });
  });
}
