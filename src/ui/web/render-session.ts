// Owns drawing one session's parts (the Session page and `strata export --html`): a header with its facts,
// links to its parent, subagents and files, and each message with its role, time, model and token usage;
// thinking, tool calls, their results, harness noise and injected text (skills, hook context) fold; edits
// show as coloured diffs; tool errors are marked. session-window.ts puts them together a window at a time.
import type { DetailBlock, DetailMessage } from '../../core/browse/session-detail.js';
import { type PairedResult, prettyInput as pretty, type SessionHeader } from '../../core/browse/session-pages.js';
import { filesHref, formatNumber, formatTime, h, sessionHref } from './dom.js';
import { renderHunk } from './render-diff.js';
import { copyButton } from './copy.js';
import { fold } from './fold.js';
import { type RestOf, withRest } from './block-rest.js';

export interface RenderOptions {
  /** Links to other sessions and to the Files page (off in an exported file, which stands alone). */
  links: boolean;
  /** Draws a message's text (Markdown in the app); plain text when absent, keeping an exported file small. */
  text?: (text: string) => Node;
}

/** What drawing a message needs beyond the message itself. */
export interface MessageContext {
  /** Tool results by their call's id, drawn in the call's fold. */
  results: Map<string, PairedResult>;
  href: (n: number) => string;
  /** `strata read <id>` for the copy buttons (none in an exported file). */
  command: string | null;
  textOf: (text: string) => Node;
  /** What reads or names the rest of a cut block of message `n`. */
  restAt: (n: number) => RestOf;
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function usageBadge(m: DetailMessage): HTMLElement | null {
  if (!m.usage) return null;
  const u = m.usage;
  const title = `input ${u.input}, output ${u.output}, cache read ${u.cacheRead}, cache write ${u.cacheWrite}`;
  return h(
    'span',
    { class: 'usage', title },
    `↑${formatNumber(u.input + u.cacheRead + u.cacheWrite)} ↓${formatNumber(u.output)} tokens`,
  );
}

function toolBlock(b: DetailBlock, result: PairedResult | undefined, rest: RestOf): Node[] {
  const failed = b.isError || (result?.isError ?? false);
  const call = fold(
    `tool${failed ? ' failed' : ''}`,
    [
      h('span', { class: 'tool-name' }, b.toolName ?? 'tool'),
      ' ',
      h('span', { class: 'tool-summary' }, b.summary ?? ''),
      failed ? h('span', { class: 'badge error' }, 'error') : null,
    ],
    () => [
      h('div', { class: 'label' }, 'input'),
      ...rest(b, h('pre', { class: 'code' }, pretty(b.input ?? b.text))),
      ...(result
        ? [
            h('div', { class: 'label' }, result.isError ? 'result (error)' : 'result'),
            ...rest(result, h('pre', { class: `code${result.isError ? ' error-text' : ''}` }, result.text)),
          ]
        : []),
    ],
  );
  // A result drawn inside its call's fold: a link to the result's message lands here.
  if (result) call.dataset.resultMessage = String(result.message);
  const nodes: Node[] = [call];
  for (const hunk of b.hunks ?? []) nodes.push(renderHunk(hunk));
  return nodes;
}

/** Text the harness put in the conversation (a skill's instructions, hook context): folded, named. */
function injected(text: string): HTMLElement {
  const skill = /^Base directory for this skill: *(\S+)/.exec(text);
  const name = skill ? `skill ${skill[1]!.split('/').filter(Boolean).pop() ?? ''}` : 'injected text';
  return fold('injected', [`‹${name}›`, h('span', { class: 'muted' }, ` ${words(text)} words`)], () => [
    h('div', { class: 'text' }, text),
  ]);
}

function renderBlock(b: DetailBlock, m: DetailMessage, ctx: MessageContext, rest: RestOf): Node[] {
  const { results, textOf } = ctx;
  if (b.noise)
    return [
      fold('noise', [`‹${b.noise}›`, h('span', { class: 'muted' }, ` ${words(b.text)} words`)], () =>
        rest(b, h('pre', { class: 'code' }, b.text)),
      ),
    ];
  switch (b.kind) {
    case 'text':
      if (m.kind === 'meta' && m.role === 'user') return [injected(b.text)];
      return b.cut ? rest(b, h('div', {}, textOf(b.text))) : [textOf(b.text)];
    case 'thinking':
      return [
        fold('thinking', ['thinking ', h('span', { class: 'muted' }, `${words(b.text)} words`)], () =>
          rest(b, h('div', { class: 'text' }, b.text)),
        ),
      ];
    case 'tool_call':
      return toolBlock(b, b.toolCallId ? results.get(b.toolCallId) : undefined, rest);
    case 'tool_result':
      // Drawn in its call's fold, not again in its own message.
      if (b.pairedWith !== undefined) return [];
      return [
        fold(
          `result${b.isError ? ' failed' : ''}`,
          [`result of ${b.toolName ?? 'a tool'}`, b.isError ? h('span', { class: 'badge error' }, 'error') : null],
          () => rest(b, h('pre', { class: 'code' }, b.text)),
        ),
      ];
    case 'system':
    case 'summary':
      return [
        fold(
          b.kind,
          [b.kind, h('span', { class: 'muted' }, ` ${words(b.text)} words`)],
          () => rest(b, h('div', { class: 'text' }, b.text)),
          b.kind === 'summary',
        ),
      ];
    default:
      return [h('div', { class: 'muted' }, `[${b.kind}]`)];
  }
}

/** One message, or null when it has nothing of its own to show (its results are drawn with their calls). */
export function renderMessage(m: DetailMessage, ctx: MessageContext): HTMLElement | null {
  const { href, command } = ctx;
  // A result drawn with its call keeps its own message number (the command that reads it whole names it).
  const rest: RestOf = (b, el) => ctx.restAt((b as Partial<PairedResult>).message ?? m.n)(b, el);
  const blocks = m.blocks.flatMap((b) => renderBlock(b, m, ctx, rest));
  if (blocks.length === 0) return null;
  return h(
    'article',
    { class: `msg role-${m.role} kind-${m.kind}`, id: `m-${m.n}` },
    h(
      'header',
      {},
      h('a', { class: 'n', href: href(m.n), 'data-message': m.n }, `#${m.n}`),
      h('span', { class: 'role' }, m.kind === 'prompt' ? 'user' : m.role),
      m.kind !== 'prompt' && m.kind !== 'response' ? h('span', { class: 'kind' }, m.kind) : null,
      h('time', {}, formatTime(m.timestamp)),
      m.model ? h('span', { class: 'model' }, m.model) : null,
      usageBadge(m),
      command ? copyButton(`${command} ${m.n}`, 'copy read command') : null,
    ),
    blocks,
  );
}

function linkTo(
  s: { id: string; title: string | null; agent: string; messages: number },
  options: RenderOptions,
): HTMLElement {
  const label = `${s.title ?? s.id} · ${s.messages} messages`;
  return options.links ? h('a', { href: sessionHref(s.id) }, label) : h('span', {}, label);
}

/** What reads the rest of a cut block of message `n`: a button in the app, the command in an exported file. */
export function restReader(s: SessionHeader, options: RenderOptions): (n: number) => RestOf {
  return (message) => (b, el) => withRest(b, el, { live: options.links, sessionId: s.id, message });
}

export function renderSessionHeader(s: SessionHeader, total: number, options: RenderOptions): HTMLElement {
  const t = s.tokens;
  return h(
    'section',
    { class: 'session-head' },
    h('h1', {}, s.title ?? s.id),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'session'),
      h('dd', {}, h('code', {}, s.id), options.links ? copyButton(s.id, 'copy id') : null),
      h('dt', {}, 'agent'),
      h('dd', {}, s.agent),
      s.project ? [h('dt', {}, 'project'), h('dd', {}, s.project)] : null,
      s.gitBranch ? [h('dt', {}, 'branch'), h('dd', {}, s.gitBranch)] : null,
      h('dt', {}, 'time'),
      h('dd', {}, `${formatTime(s.startedAt)} → ${formatTime(s.endedAt)} UTC`),
      s.models.length ? [h('dt', {}, 'models'), h('dd', {}, s.models.join(', '))] : null,
      h('dt', {}, 'tokens'),
      h(
        'dd',
        {},
        `input ${formatNumber(t.input)}, output ${formatNumber(t.output)}, cache read ` +
          `${formatNumber(t.cacheRead)}, cache write ${formatNumber(t.cacheWrite)}`,
      ),
      h('dt', {}, 'messages'),
      h('dd', {}, String(total)),
    ),
    s.parent ? h('p', {}, `${s.relation ?? 'child'} of `, linkTo(s.parent, options)) : null,
    s.subagents.length
      ? h(
          'details',
          { class: 'links', open: true },
          h('summary', {}, `${s.subagents.length} subagent session${s.subagents.length === 1 ? '' : 's'}`),
          h(
            'ul',
            {},
            s.subagents.map((c) => h('li', {}, linkTo(c, options))),
          ),
        )
      : null,
    s.files.length
      ? h(
          'details',
          { class: 'links', open: s.files.length <= 12 },
          h('summary', {}, `${s.files.length} file${s.files.length === 1 ? '' : 's'} touched`),
          h(
            'ul',
            {},
            s.files.map((f) =>
              h(
                'li',
                {},
                options.links ? h('a', { href: filesHref(f.path) }, f.path) : h('code', {}, f.path),
                ' ',
                h('span', { class: 'add' }, `+${f.added}`),
                ' ',
                h('span', { class: 'del' }, `-${f.removed}`),
              ),
            ),
          ),
        )
      : null,
  );
}
