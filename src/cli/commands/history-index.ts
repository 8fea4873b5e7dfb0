// Owns `strata history-index` (build or update a history index with phase progress on stderr) and the
// two readers of an existing index: `strata markers` and `strata topics`.
import type { Command } from 'commander';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  generateHistoryIndex,
  IndexSerializer,
  markerConfigFromJson,
  formatSummary,
  type MarkerConfig,
  type HistoryIndex,
  type HistorySourceOption,
  type Phase,
} from '../../core/history-index/index.js';
import { assertNotReentrant, createProvider, configuredRunner, createStoreCache } from '../../core/llm/index.js';
import { addLlmOptions, llmConfigFromOptions, type LlmCliOptions } from './llm.js';
import { StrataError, describeError, usageError } from '../../shared/errors.js';
import { sha256 } from '../../shared/hash.js';
import { dataDir, tildify } from '../../shared/paths.js';
import { parseTimeSpec } from '../../shared/time.js';
import type { Store } from '../../store/db.js';
import { formatTable, printJson, printLine, type CliIo } from '../io.js';
import { openStoreForWrite } from '../store-access.js';
import { readRegularFileHead } from '../../shared/regular-file.js';

interface IndexOpts extends LlmCliOptions {
  history?: string;
  project?: string;
  session?: string[];
  out?: string;
  full?: boolean;
  markerConfig?: string;
  /** false with --no-cache: every call goes to the provider. */
  cache?: boolean;
  json?: boolean;
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** True when the file's first non-blank character (after a BOM) opens a JSON object, as a Puffin history's does. */
function looksLikeJsonObject(path: string): boolean {
  const head = readFileHeadText(path, 4096)
    .replace(/^\ufeff/, '')
    .trimStart();
  return head === '' || head.startsWith('{');
}

function readFileHeadText(path: string, bytes: number): string {
  try {
    return readRegularFileHead(path, bytes).bytes.toString('utf8');
  } catch {
    return '';
  }
}

/** `--history FILE` → `FILE.index.json` beside it (history.json → history.index.json). */
export function defaultIndexPathForHistory(file: string): string {
  return join(dirname(file), `${basename(file).replace(/\.json$/i, '')}.index.json`);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The history to index when none is named: `.puffin/history.json`, else a history in `.claude/rlm_state/`
 * (history.json first), else Puffin's default path when `.puffin/` exists without it (an empty index).
 */
export function discoverHistory(cwd: string): string | undefined {
  const puffin = join(cwd, '.puffin', 'history.json');
  if (isRegularFile(puffin)) return puffin;
  const rlm = join(cwd, '.claude', 'rlm_state');
  if (isFolder(rlm)) {
    const names = readdirSync(rlm)
      .filter((n) => n.endsWith('.json') && !n.endsWith('.index.json'))
      .sort((a, b) => Number(b === 'history.json') - Number(a === 'history.json') || a.localeCompare(b));
    const found = names.map((n) => join(rlm, n)).find(isRegularFile);
    if (found) return found;
  }
  return isFolder(join(cwd, '.puffin')) ? puffin : undefined;
}

/**
 * The index `markers` and `topics` read by default: that of the discovered history, else `.strata/history-index.json`.
 */
export function defaultIndexPath(cwd: string): string {
  const history = discoverHistory(cwd);
  return history ? defaultIndexPathForHistory(history) : join(cwd, '.strata', 'history-index.json');
}

function progressPrinter(io: CliIo, json: boolean): (phase: Phase, done: number, total: number) => void {
  let lastPhase = '';
  let lastShown = -1;
  return (phase, done, total) => {
    if (phase !== 'summarize') {
      if (phase !== lastPhase) io.stderr.write(`history-index: ${phase}…\n`);
      lastPhase = phase;
      return;
    }
    lastPhase = phase;
    const step = Math.max(1, Math.ceil(total / 10));
    if (io.stderrIsTty && !json) {
      io.stderr.write(`\r\x1b[2Khistory-index: summarize ${done}/${total}${done === total ? '\n' : ''}`);
    } else if (done === 0 || done === total || Math.floor(done / step) !== Math.floor(lastShown / step)) {
      if (done !== lastShown) io.stderr.write(`history-index: summarize ${done}/${total}\n`);
    }
    lastShown = done;
  };
}

/** A `--marker-config` file: one that is missing, not JSON or not a marker config is a usage error. */
function readMarkerConfig(path: string, given: string): MarkerConfig {
  let doc: unknown;
  try {
    if (!isRegularFile(path)) throw new Error('not a regular file');
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw usageError(`--marker-config ${given} cannot be read as JSON: ${describeError(error)}`);
  }
  try {
    return markerConfigFromJson(doc, `--marker-config ${given}`);
  } catch (error) {
    throw usageError(describeError(error));
  }
}

async function runHistoryIndex(io: CliIo, opts: IndexOpts): Promise<void> {
  assertNotReentrant(io.env, 'strata history-index');
  if (opts.history && (opts.project || opts.session?.length))
    throw usageError('--history cannot be combined with --project or --session');
  let history = opts.history ? resolve(io.cwd, opts.history) : undefined;
  if (history && !isRegularFile(history)) throw usageError(`--history ${opts.history}: no such file`);
  if (history && !looksLikeJsonObject(history))
    throw usageError(`--history ${opts.history} is not a Puffin history (not a JSON object)`);
  let project = opts.project ? resolve(io.cwd, opts.project) : undefined;
  const sessions = opts.session ?? [];
  if (!history && !project && sessions.length === 0) {
    history = discoverHistory(io.cwd);
    if (!history) project = io.cwd;
  }
  const out = opts.out
    ? resolve(io.cwd, opts.out)
    : history
      ? defaultIndexPathForHistory(history)
      : project && sessions.length === 0
        ? join(project, '.strata', 'history-index.json')
        : join(
            dataDir(io.env),
            'history-index',
            `sessions-${sha256([...sessions].sort().join(',')).slice(0, 12)}.json`,
          );
  const config = llmConfigFromOptions(opts, io);
  const provider = createProvider(config, { env: io.env, cwd: io.cwd });
  const markerConfig = opts.markerConfig
    ? readMarkerConfig(resolve(io.cwd, opts.markerConfig), opts.markerConfig)
    : undefined;
  let store: Store | undefined;
  try {
    if (!history || provider.networked) store = openStoreForWrite(io);
    const source: HistorySourceOption = history
      ? { kind: 'puffin-file', path: history }
      : {
          kind: 'store',
          store: store!,
          selection: { ...(project ? { project } : {}), ...(sessions.length ? { sessions } : {}) },
        };
    if (source.kind === 'store' && project && sessions.length === 0) {
      const n = store!.db
        .prepare("SELECT count(*) AS n FROM sessions WHERE project = ? OR project LIKE ? ESCAPE '\\'")
        .get(project, `${project.replace(/[\\%_]/g, (c) => '\\' + c)}/%`) as { n: number };
      if (n.n === 0)
        throw new StrataError(
          'NOT_FOUND',
          `no sessions for project ${tildify(project, io.env)} in the store; run \`strata ingest\` first, or pass ` +
            `--history FILE`,
        );
    }
    const runner = configuredRunner(config, provider, {
      cache: provider.networked && store && opts.cache !== false ? createStoreCache(store.db) : undefined,
      onRetry: (line) => io.stderr.write(`history-index: ${line}\n`),
    });
    const result = await generateHistoryIndex({
      source,
      outputPath: out,
      runner,
      ...(opts.full ? { full: true } : {}),
      ...(markerConfig ? { markerConfig } : {}),
      ...(io.env.STRATA_LOCK_TIMEOUT_MS ? { lockTimeoutMs: Number(io.env.STRATA_LOCK_TIMEOUT_MS) } : {}),
      logger: { info: (l) => printLine(io.stderr, l), warn: (l) => printLine(io.stderr, `strata: warning: ${l}`) },
      onProgress: progressPrinter(io, Boolean(opts.json)),
    });
    if (opts.json) {
      printJson(io, {
        output: result.outputPath,
        written: result.written,
        mode: result.mode,
        statistics: result.stats,
        plan: result.plan && {
          ...result.plan,
          promptChanges: {
            added: result.plan.promptChanges.added.length,
            modified: result.plan.promptChanges.modified.length,
            removed: result.plan.promptChanges.removed.length,
          },
        },
      });
    } else {
      printLine(io.stderr, formatSummary(result.stats));
      if (existsSync(result.outputPath)) printLine(io.stdout, result.outputPath);
    }
  } finally {
    store?.close();
  }
}

async function loadIndex(io: CliIo, path: string | undefined): Promise<{ index: HistoryIndex; path: string }> {
  const file = path ? resolve(io.cwd, path) : defaultIndexPath(io.cwd);
  if (existsSync(file) && !isRegularFile(file)) throw usageError(`--index ${path ?? file}: not a regular file`);
  const index = await IndexSerializer.readIndex(file);
  if (!index)
    throw new StrataError(
      'NOT_FOUND',
      `no history index at ${tildify(file, io.env)}; run \`strata history-index\` first or pass --index FILE`,
    );
  return { index, path: file };
}

export function registerHistoryIndexCommand(program: Command, io: CliIo): void {
  const command = program.command('history-index');
  addLlmOptions(command);
  command
    .description(
      'build or update a history index: segment summaries, topics and @/ markers of a Puffin history or of stored ' +
        'sessions (incremental)',
    )
    .option(
      '--history <file>',
      'a Puffin history.json (default: ./.puffin/history.json, else a history in ./.claude/rlm_state/)',
    )
    .option('--project <dir>', 'the stored sessions of this project folder (default: the current folder)')
    .option('--session <id...>', 'these stored sessions (ids or unique prefixes)')
    .option(
      '--out <file>',
      'index file (default: FILE.index.json beside --history, <project>/.strata/history-index.json, or ' +
        '$STRATA_HOME/history-index/sessions-<hash>.json)',
    )
    .option('--full', 'summarize every segment again instead of updating incrementally')
    .option('--no-cache', 'ask the provider again instead of reusing cached replies (with --full: fresh summaries)')
    .option('--marker-config <file>', 'marker patterns (JSON, see schemas/marker-config.schema.json)')
    .option('--json', 'print the run statistics as JSON on stdout')
    .addHelpText(
      'after',
      `
Examples:
  strata history-index                                   index ./.puffin/history.json, or this project's stored sessions
  strata history-index --history .puffin/history.json    writes .puffin/history.index.json
  strata history-index --full --no-cache --provider anthropic   summarize everything afresh
  strata history-index --project ~/src/app --json        index the stored sessions of ~/src/app
  strata history-index --session 3f2a9c1e --out idx.json index one stored session
  strata history-index --provider anthropic --max-cost 0.50
Unchanged segments keep their summaries (0 LLM calls when nothing changed); more than 50% changed → full reindex.
A second run on the same output waits up to 30 s for the first (lock file <out>.lock), then exits with code 3.`,
    )
    .action((opts: IndexOpts) => runHistoryIndex(io, opts));

  program
    .command('markers')
    .description('list the @/ markers (decision, bug, todo, ...) of a history index')
    .option('--index <file>', 'index file (default: ./.puffin/history.index.json or ./.strata/history-index.json)')
    .option('--type <types>', 'only these marker types, comma-separated')
    .option('--since <time>', 'only markers of prompts at or after this time (30m, 2h, 7d, 1w or an ISO date)')
    .option('--json', 'print the markers as JSON on stdout')
    .addHelpText(
      'after',
      `
Examples:
  strata markers                          every marker of the default index
  strata markers --type decision,breaking --since 7d
  strata markers --index idx.json --json`,
    )
    .action(async (opts: { index?: string; type?: string; since?: string; json?: boolean }) => {
      const { index } = await loadIndex(io, opts.index);
      const types = opts.type
        ? new Set(
            opts.type
              .split(',')
              .map((t) => t.trim().toLowerCase())
              .filter(Boolean),
          )
        : undefined;
      const since = opts.since ? parseTimeSpec(opts.since) : undefined;
      const markers = index.markers.filter(
        (m) => (!types || types.has(m.type)) && (!since || (m.timestamp !== undefined && m.timestamp >= since)),
      );
      if (opts.json) return printJson(io, markers);
      if (markers.length === 0) return printLine(io.stderr, 'no markers');
      const rows = markers.map((m) => [
        m.type,
        m.timestamp ? m.timestamp.slice(0, 10) : '-',
        m.promptId.length > 12 ? m.promptId.slice(0, 12) : m.promptId,
        m.sourceField,
        m.content,
      ]);
      printLine(io.stdout, formatTable(rows, ['TYPE', 'DATE', 'PROMPT', 'FIELD', 'CONTENT']));
    });

  program
    .command('topics')
    .description('list the topics of a history index with the number of segments of each')
    .option('--index <file>', 'index file (default: ./.puffin/history.index.json or ./.strata/history-index.json)')
    .option('--json', 'print the topics as JSON on stdout')
    .addHelpText(
      'after',
      `
Examples:
  strata topics
  strata topics --index .puffin/history.index.json --json`,
    )
    .action(async (opts: { index?: string; json?: boolean }) => {
      const { index } = await loadIndex(io, opts.index);
      const topics = Object.entries(index.topicIndex)
        .map(([topic, segments]) => ({ topic, count: segments.length, segments }))
        .sort((a, b) => b.count - a.count || a.topic.localeCompare(b.topic));
      if (opts.json) return printJson(io, topics);
      if (topics.length === 0) return printLine(io.stderr, 'no topics');
      printLine(
        io.stdout,
        formatTable(
          topics.map((t) => [t.topic, String(t.count)]),
          ['TOPIC', 'SEGMENTS'],
        ),
      );
    });
}
