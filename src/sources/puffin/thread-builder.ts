// Owns turning Puffin prompts (fed one at a time, in file order) into threads: one session per root
// prompt (`parentId: null`) with its descendants, depth computed from the tree. Messages are emitted as
// soon as their thread is known, so memory stays bounded to the id → thread map; children that arrive
// before their parent wait in a pending list, and those whose parent never appears become orphan roots.
import type { ParseIssue, ParsedMessage, ParsedSession } from '../../shared/model.js';
import { checkPrompt, type PuffinPrompt } from './schema.js';

export interface PuffinSink {
  message(message: ParsedMessage): void;
  session(session: ParsedSession): void;
  malformed(issue: ParseIssue): void;
  skipped(type: string): void;
}

export interface BranchInfo {
  id?: string;
  name?: string;
}

interface Placed {
  root: string;
  depth: number;
}

interface PendingPrompt {
  prompt: PuffinPrompt;
  branchKey: string;
  ordinal: number;
}

const TITLE_MAX = 120;

function titleFor(prompt: PuffinPrompt): string | undefined {
  if (prompt.title) return prompt.title;
  const first = prompt.content.split('\n').find((line) => line.trim() !== '');
  if (!first) return undefined;
  const line = first.trim();
  return line.length > TITLE_MAX ? line.slice(0, TITLE_MAX - 1) + '…' : line;
}

export class PuffinThreadBuilder {
  private readonly placed = new Map<string, Placed>();
  private readonly pending = new Map<string, PendingPrompt[]>();
  private readonly sessions = new Map<string, { session: ParsedSession; branchKey: string }>();
  private readonly branches = new Map<string, BranchInfo>();
  private ordinal = 0;

  constructor(
    private readonly sink: PuffinSink,
    private readonly project: string | undefined,
  ) {}

  /** One entry of `branches.<branchKey>.prompts`, in file order. */
  addPrompt(branchKey: string, raw: unknown): void {
    const ordinal = ++this.ordinal;
    const check = checkPrompt(raw);
    if (!check.ok) {
      this.sink.malformed({ line: ordinal, reason: `branch ${branchKey}: ${check.reason}` });
      return;
    }
    const { prompt } = check;
    if (prompt.response === 'invalid') {
      this.sink.malformed({
        line: ordinal,
        reason: `prompt ${prompt.id}: response is not an object (kept the prompt)`,
      });
    }
    if (this.placed.has(prompt.id) || this.sessions.has(prompt.id)) {
      this.sink.malformed({ line: ordinal, reason: `duplicate prompt id ${prompt.id}` });
      return;
    }
    if (prompt.parentId === null) {
      this.place(prompt, branchKey, ordinal, { root: prompt.id, depth: 0 });
      return;
    }
    const parent = this.placed.get(prompt.parentId);
    if (parent) this.place(prompt, branchKey, ordinal, { root: parent.root, depth: parent.depth + 1 });
    else {
      const list = this.pending.get(prompt.parentId) ?? [];
      list.push({ prompt, branchKey, ordinal });
      this.pending.set(prompt.parentId, list);
    }
  }

  /** A branch object ended: its scalar fields are known now. */
  endBranch(branchKey: string, info: BranchInfo): void {
    this.branches.set(branchKey, info);
  }

  /** End of input: orphans become roots, sessions are emitted with their branch metadata. */
  finish(): void {
    for (const [parentId, list] of [...this.pending]) {
      if (!this.pending.has(parentId)) continue;
      this.pending.delete(parentId);
      for (const item of list) {
        this.place(item.prompt, item.branchKey, item.ordinal, { root: item.prompt.id, depth: 0 }, parentId);
      }
    }
    for (const { session, branchKey } of this.sessions.values()) {
      const branch = this.branches.get(branchKey);
      session.meta = {
        ...session.meta,
        branchId: branch?.id ?? branchKey,
        ...(branch?.name !== undefined ? { branchName: branch.name } : {}),
      };
      this.sink.session(session);
    }
  }

  private place(prompt: PuffinPrompt, branchKey: string, ordinal: number, at: Placed, orphanOf?: string): void {
    // Iterative so a long chain of children waiting for their parent cannot overflow the stack.
    const queue: Array<{ prompt: PuffinPrompt; branchKey: string; ordinal: number; at: Placed; orphanOf?: string }> = [
      { prompt, branchKey, ordinal, at, ...(orphanOf !== undefined ? { orphanOf } : {}) },
    ];
    while (queue.length > 0) {
      const item = queue.shift()!;
      this.placed.set(item.prompt.id, item.at);
      if (item.at.depth === 0) this.openSession(item.prompt, item.branchKey, item.orphanOf);
      this.emitMessages(item.prompt, item.ordinal, item.at);
      const waiting = this.pending.get(item.prompt.id);
      if (!waiting) continue;
      this.pending.delete(item.prompt.id);
      for (const child of waiting) {
        queue.push({ ...child, at: { root: item.at.root, depth: item.at.depth + 1 } });
      }
    }
  }

  private openSession(root: PuffinPrompt, branchKey: string, orphanOf: string | undefined): void {
    const session: ParsedSession = { key: root.id, agent: 'puffin', meta: { rootPromptId: root.id } };
    if (this.project) session.project = this.project;
    const title = titleFor(root);
    if (title) session.title = title;
    if (orphanOf !== undefined) session.meta = { ...session.meta, orphanOfPromptId: orphanOf };
    this.sessions.set(root.id, { session, branchKey });
  }

  private emitMessages(prompt: PuffinPrompt, ordinal: number, at: Placed): void {
    const meta: Record<string, unknown> = { promptId: prompt.id, depth: at.depth, ...prompt.extra };
    if (prompt.parentId !== null) meta.parentId = prompt.parentId;
    if (prompt.title) meta.title = prompt.title;
    const promptMessage: ParsedMessage = {
      sessionKey: at.root,
      key: `${prompt.id}:p`,
      role: 'user',
      kind: 'prompt',
      line: ordinal,
      blocks: [{ kind: 'text', text: prompt.content }],
      meta,
    };
    if (prompt.timestamp) promptMessage.timestamp = prompt.timestamp;
    // A prompt kept only for its response (no content) is no prompt a person typed.
    if (prompt.content !== '') this.sink.message(promptMessage);

    const response = prompt.response;
    if (!response || response === 'invalid') return;
    const responseMeta: Record<string, unknown> = { promptId: prompt.id, depth: at.depth };
    if (response.cost !== undefined) responseMeta.cost = response.cost;
    if (response.turns !== undefined) responseMeta.turns = response.turns;
    if (response.durationMs !== undefined) responseMeta.durationMs = response.durationMs;
    if (response.sessionId !== undefined) responseMeta.claudeSessionId = response.sessionId;
    responseMeta.filesModified = response.filesModified;
    const responseMessage: ParsedMessage = {
      sessionKey: at.root,
      key: `${prompt.id}:r`,
      role: 'assistant',
      kind: 'response',
      line: ordinal,
      blocks: response.content !== '' ? [{ kind: 'text', text: response.content }] : [],
      meta: responseMeta,
    };
    if (response.timestamp) responseMessage.timestamp = response.timestamp;
    this.sink.message(responseMessage);
  }
}
