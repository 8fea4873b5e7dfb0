// Owns HistoryParser: a Puffin `history.json` → ParsedHistory (branches → prompts with depth, children,
// dateRange, totalPrompts), read through the Puffin adapter's raw prompt walk (which picks JSON.parse or
// its streaming walk by size). Malformed entries are skipped and logged.
import { existsSync } from 'node:fs';
import { STREAM_THRESHOLD_BYTES, walkPuffinPrompts } from '../../sources/puffin/index.js';
import { checkPrompt, type PuffinPrompt } from '../../sources/puffin/schema.js';
import { hashFile } from './file-hash.js';
import {
  silentLogger,
  type HistoryIssue,
  type HistorySourceInfo,
  type Logger,
  type ParsedHistory,
  type ParsedPrompt,
} from './types.js';

export { STREAM_THRESHOLD_BYTES };

export interface HistoryParserOptions {
  /** Override the streaming threshold (tests force streaming with 0). */
  streamThresholdBytes?: number;
  logger?: Logger;
  /** The file's SHA-256 when the caller already has it. */
  contentHash?: string;
  /**
   * Sees each accepted prompt once, in file order, before it is kept; it may empty the texts (the
   * pipeline keeps only hashes and counts, then reads the texts again segment by segment).
   */
  visit?: (prompt: ParsedPrompt) => void;
}

function toMs(iso: string | undefined): number {
  if (!iso) return 0;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : 0;
}

/** One validated Puffin prompt → ParsedPrompt (depth and children are filled in by finalizeHistory). */
export function toParsedPrompt(prompt: PuffinPrompt, branchId: string): ParsedPrompt {
  const r = prompt.response;
  const parsed: ParsedPrompt = {
    id: prompt.id,
    branchId,
    parentId: prompt.parentId,
    content: prompt.content,
    timestamp: toMs(prompt.timestamp),
    response:
      r && r !== 'invalid'
        ? {
            content: r.content,
            sessionId: r.sessionId ?? '',
            cost: r.cost ?? 0,
            turns: r.turns ?? 0,
            duration: r.durationMs ?? 0,
            timestamp: toMs(r.timestamp),
          }
        : null,
    children: [],
    depth: 0,
  };
  if (prompt.title) parsed.title = prompt.title;
  return parsed;
}

/** Links children to parents, computes depth (cycles and missing parents count as roots) and the date range. */
export function finalizeHistory(
  prompts: ParsedPrompt[],
  branchOrder: string[],
  branchNames: Map<string, string>,
  issues: HistoryIssue[],
  source: HistorySourceInfo,
): ParsedHistory {
  const byId = new Map<string, ParsedPrompt>();
  for (const p of prompts) byId.set(p.id, p);
  for (const p of prompts) p.children = [];
  for (const p of prompts) {
    const parent = p.parentId === null ? undefined : byId.get(p.parentId);
    if (!parent) continue;
    parent.children.push(p.id);
    p.parentId = parent.id; // one string per id: the copy read from the file is let go
  }
  // A grown array keeps spare capacity (17 slots after one push): copies hold only their ids.
  for (const p of prompts) if (p.children.length > 0) p.children = p.children.slice();
  const depth = new Map<string, number>();
  for (const p of prompts) {
    const path: ParsedPrompt[] = [];
    const onPath = new Set<string>();
    let cur: ParsedPrompt | undefined = p;
    let base = -1;
    while (cur && !depth.has(cur.id)) {
      if (onPath.has(cur.id)) {
        issues.push({
          reason: `parent cycle through prompt ${cur.id}; treated as a root`,
          promptId: cur.id,
          branchId: cur.branchId,
        });
        break;
      }
      onPath.add(cur.id);
      path.push(cur);
      cur = cur.parentId === null ? undefined : byId.get(cur.parentId);
    }
    if (cur && depth.has(cur.id)) base = depth.get(cur.id)!;
    for (let i = path.length - 1; i >= 0; i--) depth.set(path[i]!.id, ++base);
  }
  const branches = new Map<string, ParsedPrompt[]>();
  for (const key of branchOrder) branches.set(key, []);
  let earliest = Infinity;
  let latest = -Infinity;
  for (const p of prompts) {
    p.depth = depth.get(p.id) ?? 0;
    let list = branches.get(p.branchId);
    if (!list) branches.set(p.branchId, (list = []));
    list.push(p);
    for (const t of [p.timestamp, p.response?.timestamp ?? 0]) {
      if (t > 0) {
        earliest = Math.min(earliest, t);
        latest = Math.max(latest, t);
      }
    }
  }
  const dateRange = Number.isFinite(earliest) ? { earliest, latest } : { earliest: 0, latest: 0 };
  return { branches, totalPrompts: prompts.length, dateRange, branchNames, issues, source };
}

export function emptyHistory(source: HistorySourceInfo, issues: HistoryIssue[] = []): ParsedHistory {
  return {
    branches: new Map(),
    totalPrompts: 0,
    dateRange: { earliest: 0, latest: 0 },
    branchNames: new Map(),
    issues,
    source,
  };
}

/** Validates raw prompts in file order: malformed ones and duplicate ids become issues. */
class PromptCollector {
  readonly prompts: ParsedPrompt[] = [];
  readonly issues: HistoryIssue[] = [];
  readonly branchOrder: string[] = [];
  readonly branchNames = new Map<string, string>();
  private readonly seen = new Set<string>();
  private readonly depthSoFar = new Map<string, number>();
  private readonly positions = new Map<string, number>();

  constructor(private readonly logger: Logger) {}

  branch(key: string, name?: string): void {
    if (!this.branchOrder.includes(key)) this.branchOrder.push(key);
    if (name !== undefined) this.branchNames.set(key, name);
  }

  /** Returns the prompt (with a provisional depth from parents seen so far) or undefined when skipped. */
  add(branchKey: string, raw: unknown): ParsedPrompt | undefined {
    this.branch(branchKey);
    const index = (this.positions.get(branchKey) ?? 0) + 1;
    this.positions.set(branchKey, index);
    const check = checkPrompt(raw);
    if (!check.ok) return void this.issue({ reason: check.reason, branchId: branchKey, index });
    const { prompt } = check;
    if (prompt.response === 'invalid')
      this.issue({
        reason: 'response is not an object (prompt kept without it)',
        branchId: branchKey,
        index,
        promptId: prompt.id,
      });
    if (this.seen.has(prompt.id))
      return void this.issue({
        reason: `duplicate prompt id ${prompt.id} (skipped)`,
        branchId: branchKey,
        index,
        promptId: prompt.id,
      });
    this.seen.add(prompt.id);
    const parsed = toParsedPrompt(prompt, branchKey);
    const parentDepth = parsed.parentId === null ? undefined : this.depthSoFar.get(parsed.parentId);
    parsed.depth = parentDepth === undefined ? 0 : parentDepth + 1;
    this.depthSoFar.set(parsed.id, parsed.depth);
    return parsed;
  }

  issue(issue: HistoryIssue): void {
    this.issues.push(issue);
    const where = [issue.branchId && `branch ${issue.branchId}`, issue.index && `entry ${issue.index}`]
      .filter(Boolean)
      .join(', ');
    this.logger.warn(`history: skipped malformed entry${where ? ` (${where})` : ''}: ${issue.reason}`);
  }
}

export class HistoryParser {
  private readonly threshold: number;
  private readonly logger: Logger;

  constructor(
    readonly historyPath: string,
    private readonly options: HistoryParserOptions = {},
  ) {
    this.threshold = options.streamThresholdBytes ?? STREAM_THRESHOLD_BYTES;
    this.logger = options.logger ?? silentLogger;
  }

  /** Parses the whole file. A missing file gives an empty history with `source.missing` (an empty index follows). */
  async parse(): Promise<ParsedHistory> {
    const source: HistorySourceInfo = { kind: 'puffin-file', path: this.historyPath, contentHash: '' };
    if (!existsSync(this.historyPath)) {
      this.logger.warn(`history file not found: ${this.historyPath}; the index will be empty`);
      return emptyHistory({ ...source, missing: true });
    }
    const contentHash = this.options.contentHash ?? (await hashFile(this.historyPath));
    const collector = new PromptCollector(this.logger);
    const prompts: ParsedPrompt[] = [];
    const end = await walkPuffinPrompts(
      this.historyPath,
      {
        prompt: (branchKey, raw) => {
          const prompt = collector.add(branchKey, raw);
          if (!prompt) return;
          this.options.visit?.(prompt);
          prompts.push(prompt);
        },
        branchEnd: (branchKey, info) => collector.branch(branchKey, info.name),
        skipped: (type, branchKey) =>
          collector.issue({
            reason: type === 'branch:not_object' ? 'branch is not an object' : `skipped ${type}`,
            ...(branchKey !== undefined ? { branchId: branchKey } : {}),
          }),
      },
      { streamThresholdBytes: this.threshold },
    );
    if (!end.isPuffin) {
      collector.issue({ reason: 'not a Puffin history: no top-level "branches" object' });
      return emptyHistory({ ...source, contentHash }, collector.issues);
    }
    if (end.error)
      collector.issue({
        reason:
          `invalid JSON (truncated or corrupt) at line ${end.error.line}, byte ` +
          `${end.error.offset}: ${end.error.message}; prompts completed before it were kept`,
      });
    return finalizeHistory(prompts, collector.branchOrder, collector.branchNames, collector.issues, {
      ...source,
      contentHash,
    });
  }

  /** One branch's prompts (for incremental updates of a single branch). */
  async parseBranch(branchId: string): Promise<ParsedPrompt[]> {
    return (await this.parse()).branches.get(branchId) ?? [];
  }
}
