// Owns the streaming path for big Puffin histories: a token-level walk over stream-json's parser that
// assembles one prompt object at a time (`branches.<key>.prompts[i]`) and skips everything else, so
// memory is bounded by the largest single prompt, not the file.
import { createReadStream } from 'node:fs';
import Parser from 'stream-json/Parser.js';
import type { BranchInfo } from './thread-builder.js';

export interface Token {
  name: string;
  value?: unknown;
}

export interface WalkHandler {
  prompt(branchKey: string, raw: unknown): void;
  branchEnd(branchKey: string, info: BranchInfo): void;
  skipped(type: string): void;
}

type Role = 'root' | 'branches' | 'branch' | 'prompts' | 'skip';

interface Frame {
  role: Role;
  key?: string;
  branchKey?: string;
  info?: BranchInfo;
}

/**
 * The tokenizer's strings are often slices of its 1 MiB input chunks; keeping one alive (an id in a map,
 * a message text) would keep the whole chunk alive. A copy holds only its own characters.
 */
function detachString(value: string): string {
  return value.length < 13 ? value : (' ' + value).slice(1);
}

const SCALARS: Record<string, (value: unknown) => unknown> = {
  stringValue: (v) => detachString(String(v)),
  numberValue: (v) => Number(v),
  nullValue: () => null,
  trueValue: () => true,
  falseValue: () => false,
};

/** Feeds parser tokens; calls the handler for each complete prompt and each finished branch. */
export class PuffinTokenWalker {
  private readonly frames: Frame[] = [];
  private asmStack: unknown[] = [];
  private asmKeys: Array<string | undefined> = [];
  private asmBranch = '';
  rootKind: 'object' | 'other' | undefined;
  sawBranches = false;

  constructor(private readonly handler: WalkHandler) {}

  token(token: Token): void {
    if (this.asmStack.length > 0) {
      this.assemble(token);
      return;
    }
    const { name } = token;
    const top = this.frames[this.frames.length - 1];
    if (name === 'keyValue') {
      if (top) top.key = String(token.value);
      return;
    }
    if (name === 'endObject' || name === 'endArray') {
      const frame = this.frames.pop();
      if (frame?.role === 'branch') this.handler.branchEnd(frame.branchKey ?? '', frame.info ?? {});
      return;
    }
    const isStart = name === 'startObject' || name === 'startArray';
    if (!top) {
      this.rootKind = name === 'startObject' ? 'object' : 'other';
      if (isStart) this.frames.push({ role: name === 'startObject' ? 'root' : 'skip' });
      return;
    }
    if (top.role === 'prompts') {
      if (isStart) this.startAssembly(name, top.branchKey ?? '');
      else this.handler.prompt(top.branchKey ?? '', SCALARS[name]?.(token.value));
      return;
    }
    const role = this.childRole(top, name);
    if (top.role === 'branch' && !isStart && (top.key === 'id' || top.key === 'name') && name === 'stringValue') {
      top.info = { ...top.info, [top.key]: detachString(String(token.value)) };
    }
    if (isStart) {
      const frame: Frame = { role };
      if (role === 'branch') {
        frame.branchKey = detachString(top.key ?? '');
        frame.info = {};
      }
      if (role === 'prompts') frame.branchKey = top.branchKey ?? '';
      this.frames.push(frame);
    }
  }

  private childRole(parent: Frame, name: string): Role {
    if (parent.role === 'root' && parent.key === 'branches') {
      if (name === 'startObject') {
        this.sawBranches = true;
        return 'branches';
      }
      return 'skip';
    }
    if (parent.role === 'branches') {
      if (name === 'startObject') return 'branch';
      this.handler.skipped('branch:not_object');
      return 'skip';
    }
    if (parent.role === 'branch' && parent.key === 'prompts' && name === 'startArray') return 'prompts';
    return 'skip';
  }

  private startAssembly(name: string, branchKey: string): void {
    this.asmBranch = branchKey;
    this.asmStack = [name === 'startObject' ? {} : []];
    this.asmKeys = [undefined];
  }

  private assemble(token: Token): void {
    const { name } = token;
    if (name === 'keyValue') {
      this.asmKeys[this.asmKeys.length - 1] = String(token.value);
      return;
    }
    if (name === 'startObject' || name === 'startArray') {
      this.asmStack.push(name === 'startObject' ? {} : []);
      this.asmKeys.push(undefined);
      return;
    }
    if (name === 'endObject' || name === 'endArray') {
      const done = this.asmStack.pop();
      this.asmKeys.pop();
      if (this.asmStack.length === 0) this.handler.prompt(this.asmBranch, done);
      else this.put(done);
      return;
    }
    const scalar = SCALARS[name];
    if (scalar) this.put(scalar(token.value));
  }

  private put(value: unknown): void {
    const target = this.asmStack[this.asmStack.length - 1];
    if (Array.isArray(target)) target.push(value);
    else if (target && typeof target === 'object') {
      const key = this.asmKeys[this.asmKeys.length - 1];
      if (key !== undefined) (target as Record<string, unknown>)[key] = value;
    }
  }
}

export interface StreamResult {
  /** Set when the parser failed: the byte offset and 1-based line reached when it stopped. */
  error?: { offset: number; line: number; message: string };
  bytes: number;
}

/**
 * Streams `path` through stream-json's tokenizer into the walker. Resolves (never rejects) at the end.
 * `waitFor` is asked after each token: a promise it returns pauses the read until it settles; 'stop'
 * ends the read there (the caller has what it needs).
 */
export function streamPuffinTokens(
  path: string,
  walker: PuffinTokenWalker,
  waitFor?: () => Promise<void> | 'stop' | undefined,
): Promise<StreamResult> {
  return new Promise((resolve) => {
    let bytes = 0;
    let newlines = 0;
    let settled = false;
    const input = createReadStream(path, { highWaterMark: 1 << 20 });
    const parser = new Parser({ packValues: true, streamValues: false });
    const finish = (result: StreamResult): void => {
      if (settled) return;
      settled = true;
      input.destroy();
      resolve(result);
    };
    const fail = (err: Error): void =>
      finish({ bytes, error: { offset: bytes, line: newlines + 1, message: err.message } });
    input.on('data', (chunk) => {
      const buf = chunk as Buffer;
      bytes += buf.length;
      for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) newlines++;
    });
    input.on('error', fail);
    parser.on('error', fail);
    parser.on('data', (token: Token) => {
      if (settled) return;
      try {
        walker.token(token);
      } catch (err) {
        fail(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      const pending = waitFor?.();
      if (pending === 'stop') finish({ bytes });
      else if (pending) {
        parser.pause();
        pending.then(
          () => parser.resume(),
          (err: unknown) => fail(err instanceof Error ? err : new Error(String(err))),
        );
      }
    });
    parser.on('end', () => finish({ bytes }));
    input.pipe(parser);
  });
}
