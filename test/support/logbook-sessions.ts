// Test helpers for the logbook: Claude Code transcripts written from a compact description, ingested
// into a temporary store, and a scripted networked provider that records every request it answers.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest } from '../../src/core/ingest/ingest.js';
import type { LlmProvider, LlmReply, LlmRequest } from '../../src/core/llm/index.js';
import { LlmProviderError, parseJsonReply } from '../../src/core/llm/index.js';
import { openStore, type Store } from '../../src/store/db.js';
import { tempDir } from './paths.js';

type Turn =
  | { user: string }
  | { assistant: string }
  | { noise: string }
  | { tool: string; input: Record<string, unknown>; output: string; failed?: boolean };

export interface SessionSpec {
  id: string;
  cwd: string;
  start: string;
  turns: Turn[];
  /** Subagent transcripts of this session. */
  subagents?: Array<{ agentId: string; turns: Turn[] }>;
}

function lines(
  spec: { id: string; cwd: string; start: string; turns: Turn[] },
  sidechain: boolean,
  agentId?: string,
): string[] {
  const out: string[] = [];
  let t = Date.parse(spec.start);
  let parent: string | null = null;
  let n = 0;
  const base = {
    sessionId: spec.id,
    cwd: spec.cwd,
    version: '2.1.0',
    isSidechain: sidechain,
    userType: 'external',
    ...(agentId ? { agentId } : {}),
  };
  const push = (type: 'user' | 'assistant', content: unknown): void => {
    const uuid = `${agentId ?? 'm'}-${spec.id.slice(0, 8)}-${++n}`;
    const ts = new Date((t += 60_000)).toISOString();
    const message =
      type === 'user'
        ? { role: 'user', content }
        : {
            id: `msg_${uuid}`,
            role: 'assistant',
            model: 'claude-sonnet-4',
            content,
            usage: { input_tokens: 1, output_tokens: 1 },
          };
    out.push(JSON.stringify({ ...base, type, uuid, parentUuid: parent, timestamp: ts, message }));
    parent = uuid;
  };
  spec.turns.forEach((turn, i) => {
    if ('user' in turn) push('user', turn.user);
    else if ('noise' in turn)
      push('user', `<command-name>/clear</command-name><command-message>${turn.noise}</command-message>`);
    else if ('assistant' in turn) push('assistant', [{ type: 'text', text: turn.assistant }]);
    else {
      const id = `toolu_${spec.id.slice(0, 6)}_${i}`;
      push('assistant', [{ type: 'tool_use', id, name: turn.tool, input: turn.input }]);
      push('user', [{ type: 'tool_result', tool_use_id: id, content: turn.output, is_error: Boolean(turn.failed) }]);
    }
  });
  return out;
}

/** Writes the sessions as Claude Code transcripts under `root/projects/<slug>/`. */
export function writeSessions(root: string, sessions: SessionSpec[]): string {
  const dir = join(root, 'projects', '-work-app');
  mkdirSync(dir, { recursive: true });
  for (const s of sessions) {
    writeFileSync(join(dir, `${s.id}.jsonl`), lines(s, false).join('\n') + '\n');
    for (const sub of s.subagents ?? []) {
      const subDir = join(dir, s.id, 'subagents');
      mkdirSync(subDir, { recursive: true });
      writeFileSync(
        join(subDir, `agent-${sub.agentId}.jsonl`),
        lines(
          { ...s, turns: sub.turns, start: new Date(Date.parse(s.start) + 90_000).toISOString() },
          true,
          sub.agentId,
        ).join('\n') + '\n',
      );
    }
  }
  return dir;
}

export async function storeWith(
  sessions: SessionSpec[],
  root = tempDir('strata-logbook-'),
): Promise<{ store: Store; root: string; dir: string }> {
  const dir = writeSessions(root, sessions);
  const store = openStore(join(root, 'data', 'strata.db'));
  await ingest({
    store,
    paths: [dir],
    agents: ['claude-code'],
    env: { HOME: root, STRATA_HOME: join(root, 'data') },
    cwd: root,
  });
  return { store, root, dir };
}

export async function reingest(store: Store, root: string, dir: string): Promise<void> {
  await ingest({
    store,
    paths: [dir],
    agents: ['claude-code'],
    env: { HOME: root, STRATA_HOME: join(root, 'data') },
    cwd: root,
  });
}

export interface ScriptedProvider extends LlmProvider {
  requests: LlmRequest[];
}

/** A networked provider answering each request with `answer(request, index)` (throw to fail the call). */
export function scriptedProvider(answer: (request: LlmRequest, index: number) => string): ScriptedProvider {
  const requests: LlmRequest[] = [];
  return {
    name: 'openai',
    model: 'gpt-4o-mini',
    networked: true,
    requests,
    async complete<T>(request: LlmRequest<T>): Promise<LlmReply<T>> {
      requests.push(request);
      const text = answer(request, requests.length - 1);
      const reply: LlmReply<T> = {
        provider: 'openai',
        model: 'gpt-4o-mini',
        text,
        usage: { inputTokens: 10, outputTokens: 5 },
        costUsd: 0.0001,
        priceKnown: true,
      };
      if (request.json) {
        const parsed = parseJsonReply<T>(text, request.json);
        if (!parsed.ok)
          throw new LlmProviderError('invalid_json', `reply is not the requested JSON (${parsed.error})`, {
            replyText: text,
          });
        reply.json = parsed.value;
      }
      return reply;
    },
  };
}

/** The chunk part of a logbook prompt (after CURRENT CONVERSATION CHUNK:). */
export function chunkOf(request: LlmRequest): string {
  return request.prompt.split('CURRENT CONVERSATION CHUNK:\n')[1]!.split('\n\nTASK:')[0]!;
}

/** The logbook part of a logbook prompt. */
export function logbookOf(request: LlmRequest): string {
  return request.prompt.split('CURRENT LOGBOOK:\n')[1]!.split('\n\nCURRENT CONVERSATION CHUNK:')[0]!;
}
