// Owns the built-in example: three short Claude Code sessions (written for strata, not copied from
// anyone) about a fictional project, used by `strata demo` to show the product with no history at hand.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PROJECT = '/home/demo/tide-tracker';
const SLUG = '-home-demo-tide-tracker';

interface Turn {
  user: string;
  assistant: string;
  tool?: { name: string; input: Record<string, unknown>; output: string };
}

const SESSIONS: { id: string; start: string; branch: string; turns: Turn[] }[] = [
  {
    id: '5d1c2a0e-7f3b-4c1e-9a52-1b7e0c3d9f01',
    start: '2025-10-06T09:00:00.000Z',
    branch: 'main',
    turns: [
      {
        user: 'We need to store tide readings locally. Should we use SQLite or a JSON file?',
        assistant:
          'We decided to use SQLite (better-sqlite3) because readings arrive every minute and we need range queries ' +
          'by station and time; a JSON file would have to be rewritten on every reading. Rather than an ORM we ' +
          'keep plain SQL migrations.',
        tool: {
          name: 'Write',
          input: {
            file_path: `${PROJECT}/src/db/migrations/001-readings.sql`,
            content:
              'CREATE TABLE readings (\n  station TEXT NOT NULL,\n  at TEXT NOT NULL,\n  height_cm INTEGER NOT ' +
              'NULL\n);\n',
          },
          output: 'File created successfully',
        },
      },
      {
        user:
          'Add an index for the range query and run the tests. My API key for the tide service is ' +
          'sk-ant-api03-DEMOdemoDEMOdemoDEMOdemo1234567890abcd, put it in .env',
        assistant: "Added the index and a `.env` entry (the key is redacted in strata's store). All 12 tests pass.",
        tool: {
          name: 'Bash',
          input: { command: 'npm test', description: 'Run the test suite' },
          output: 'Test Files  3 passed (3)\n     Tests  12 passed (12)',
        },
      },
    ],
  },
  {
    id: '8a4f7b2c-3e9d-4b8a-b6c1-2f0e9d8c7b02',
    start: '2025-10-08T14:30:00.000Z',
    branch: 'fix/timezone',
    turns: [
      {
        user: 'Readings near midnight show up on the wrong day in the chart. 潮汐数据的时区有问题。',
        assistant:
          'Found the bug: `groupByDay` in src/chart/group-by-day.ts used local time while readings are stored in ' +
          "UTC. Fixed it by converting with the station's IANA time zone instead of the server's.",
        tool: {
          name: 'Edit',
          input: {
            file_path: `${PROJECT}/src/chart/group-by-day.ts`,
            old_string: 'const day = new Date(at).getDate();',
            new_string: 'const day = dayInZone(at, station.timeZone);',
          },
          output: 'The file has been updated.',
        },
      },
      {
        user: 'Commit it.',
        assistant: 'Committed as "Group chart readings by the station\'s time zone".',
        tool: {
          name: 'Bash',
          input: { command: 'git commit -am "Group chart readings by the station\'s time zone"' },
          output:
            "[fix/timezone 3f2a9c1] Group chart readings by the station's time zone\n 1 file changed, 1 " +
            'insertion(+), 1 deletion(-)',
        },
      },
    ],
  },
  {
    id: 'c3e8d1f4-6b2a-4f7e-8d9c-0a1b2c3d4e03',
    start: '2025-10-13T11:15:00.000Z',
    branch: 'main',
    turns: [
      {
        user: 'Why did we pick SQLite again? Someone suggested Postgres.',
        assistant:
          'The decision from October 6 stands: SQLite keeps the tracker a single-binary, offline-first app, and ' +
          'range queries by station and time are fast with the (station, at) index. Postgres would add a server to ' +
          'every install for no gain at our data size.',
      },
      {
        user: 'Fine. Add a CSV export of the readings.',
        assistant:
          'Added `exportCsv(station, from, to)` in src/export/csv.ts, streaming rows so large exports stay flat in ' +
          'memory.',
        tool: {
          name: 'Write',
          input: {
            file_path: `${PROJECT}/src/export/csv.ts`,
            content:
              'export function* exportCsv(rows: Iterable<Reading>) {\n  yield "station,at,height_cm\\n";\n  for ' +
              '(const r of rows) yield `${r.station},${r.at},${r.heightCm}\\n`;\n}\n',
          },
          output: 'File created successfully',
        },
      },
    ],
  },
];

function recordsFor(session: (typeof SESSIONS)[number]): string[] {
  const lines: string[] = [];
  let clock = Date.parse(session.start);
  let parent: string | null = null;
  let n = 0;
  const base = {
    sessionId: session.id,
    cwd: PROJECT,
    gitBranch: session.branch,
    version: '2.0.0',
    userType: 'external',
    isSidechain: false,
  };
  const uuid = () => `${session.id.slice(0, 24)}${String(++n).padStart(12, '0')}`;
  const tick = () => new Date((clock += 7000)).toISOString();
  for (const turn of session.turns) {
    const u = uuid();
    lines.push(
      JSON.stringify({
        ...base,
        type: 'user',
        uuid: u,
        parentUuid: parent,
        timestamp: tick(),
        message: { role: 'user', content: turn.user },
      }),
    );
    parent = u;
    const msgId = `msg_demo_${session.id.slice(0, 8)}_${n}`;
    const a = uuid();
    const usage = {
      input_tokens: 900 + n * 10,
      output_tokens: 120 + n,
      cache_read_input_tokens: 2000,
      cache_creation_input_tokens: 0,
    };
    lines.push(
      JSON.stringify({
        ...base,
        type: 'assistant',
        uuid: a,
        parentUuid: parent,
        timestamp: tick(),
        requestId: `req_${msgId}`,
        message: {
          id: msgId,
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: turn.assistant }],
          usage,
        },
      }),
    );
    parent = a;
    if (turn.tool) {
      const callId = `toolu_demo_${session.id.slice(0, 6)}_${n}`;
      const c = uuid();
      lines.push(
        JSON.stringify({
          ...base,
          type: 'assistant',
          uuid: c,
          parentUuid: parent,
          timestamp: tick(),
          requestId: `req_${msgId}`,
          message: {
            id: msgId,
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [{ type: 'tool_use', id: callId, name: turn.tool.name, input: turn.tool.input }],
            usage,
          },
        }),
      );
      parent = c;
      const r = uuid();
      lines.push(
        JSON.stringify({
          ...base,
          type: 'user',
          uuid: r,
          parentUuid: parent,
          timestamp: tick(),
          message: {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: callId, content: turn.tool.output, is_error: false }],
          },
        }),
      );
      parent = r;
    }
  }
  return lines;
}

/** Writes the example sessions as a Claude Code projects tree under `root`; returns the project folder. */
export function writeDemoSessions(root: string): string {
  const folder = join(root, 'projects', SLUG);
  mkdirSync(folder, { recursive: true });
  for (const session of SESSIONS)
    writeFileSync(join(folder, `${session.id}.jsonl`), recordsFor(session).join('\n') + '\n');
  return folder;
}
