// Shared helpers for the history index tests: fixture paths, a call-counting provider wrapper, a
// runner over it, and a generator of small Puffin histories.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createExtractiveProvider, LlmRunner, type LlmProvider } from '../../src/core/llm/index.js';
import { FIXTURES } from './paths.js';

export const PUFFIN_FIXTURES = [
  join(FIXTURES, 'puffin', 'jdubray-cosa', 'history.early.json'),
  join(FIXTURES, 'puffin', 'jdubray-puffin-todo-list', 'history.json'),
];
export const CLAUDE_FIXTURES = join(FIXTURES, 'claude-code', 'obra-episodic-memory');

/** Wraps a provider and counts its complete() calls. */
export function countingProvider(inner: LlmProvider = createExtractiveProvider()): {
  provider: LlmProvider;
  calls: () => number;
  reset: () => void;
} {
  let calls = 0;
  const provider: LlmProvider = {
    name: inner.name,
    model: inner.model,
    networked: inner.networked,
    complete(request, context) {
      calls++;
      return inner.complete(request, context);
    },
  };
  return { provider, calls: () => calls, reset: () => void (calls = 0) };
}

export function countingRunner(): { runner: () => LlmRunner; calls: () => number; reset: () => void } {
  const counting = countingProvider();
  return { runner: () => new LlmRunner({ provider: counting.provider }), calls: counting.calls, reset: counting.reset };
}

export interface SamplePrompt {
  id: string;
  parentId: string | null;
  content: string;
  timestamp: number;
  response?: {
    content: string;
    timestamp: number;
    sessionId?: string;
    cost?: number;
    turns?: number;
    duration?: number;
  } | null;
}

/** `threads` conversations of `turns` prompts each in one branch; texts mention the thread and turn. */
export function samplePrompts(
  threads: number,
  turns: number,
  branch = 'main',
  t0 = Date.UTC(2025, 0, 1),
): SamplePrompt[] {
  const out: SamplePrompt[] = [];
  for (let t = 0; t < threads; t++) {
    for (let k = 0; k < turns; k++) {
      const id = `${branch}-t${t}-p${k}`;
      const ts = t0 + (t * turns + k) * 60_000;
      out.push({
        id,
        parentId: k === 0 ? null : `${branch}-t${t}-p${k - 1}`,
        content: `Thread ${t} turn ${k}: please update src/module${t}.ts so the parser handles case ${k}.`,
        timestamp: ts,
        response: {
          content: `Updated src/module${t}.ts: the parser now handles case ${k}. Tests pass for the ${branch} branch.`,
          timestamp: ts + 30_000,
          sessionId: `s-${t}`,
          cost: 0.01,
          turns: 2,
          duration: 30_000,
        },
      });
    }
  }
  return out;
}

export function writeHistory(path: string, branches: Record<string, SamplePrompt[]>, indent = 2): string {
  const doc = {
    branches: Object.fromEntries(
      Object.entries(branches).map(([id, prompts]) => [id, { id, name: id.toUpperCase(), prompts }]),
    ),
    activeBranch: Object.keys(branches)[0],
  };
  writeFileSync(path, JSON.stringify(doc, null, indent));
  return path;
}
