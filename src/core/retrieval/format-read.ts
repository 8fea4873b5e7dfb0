// Owns the plain-text rendering of `read`: a session header, one section per message (`#N role · time`),
// tool calls on one line (`→ Bash: npm test`), results as `← Bash: ...`, thinking as a word count, and the
// truncation footer.
import type { ReadBlock, ReadResult } from './read-session.js';
import { shortTime } from './format-listing.js';
import { groupDigits } from '../../shared/numbers.js';
import { shellArg } from '../../shared/shell-arg.js';

/** How the text says to read more: the CLI's flags by default; a tool names its own arguments. */
export interface ReadHints {
  /** Reading on past a cut, from word `skip` of every field. */
  more: (skip: number) => string;
  /** Opening a subagent's session. */
  subagent: (id: string) => string;
}

const CLI_READ_HINTS: ReadHints = {
  more: (skip) => `Use --skip ${skip} for more.`,
  subagent: (id) => `strata read ${shellArg(id)}`,
};

/** A cut says how much it left out: ` … 1,240 more words`. */
function ellipsis(b: ReadBlock): string {
  if (!b.truncated) return '';
  return b.cutWords ? ` … ${groupDigits(b.cutWords)} more word${b.cutWords === 1 ? '' : 's'}` : ' …';
}

function renderBlock(b: ReadBlock, hints: ReadHints): string {
  const error = b.isError ? ' (error)' : '';
  if (b.visibility === 'count') {
    const what =
      b.field === 'tool_output'
        ? `${b.toolName ?? 'tool'} result`
        : b.kind === 'tool_call'
          ? `${b.toolName ?? 'tool'} call`
          : b.field;
    return `[${what}: ${b.words} words${error}]`;
  }
  if (b.kind === 'tool_call') {
    const subagent = b.subagent ? ` (subagent session ${b.subagent}: ${hints.subagent(b.subagent)})` : '';
    const body = b.text.includes('\n') ? `\n${b.text}` : ` ${b.text}`;
    return `→ ${b.toolName ?? 'tool'}${error}${subagent}:${body}${ellipsis(b)}`;
  }
  if (b.field === 'tool_output') return `← ${b.toolName ?? 'tool'}${error}:\n${b.text}${ellipsis(b)}`;
  if (b.kind === 'image' || b.kind === 'document') return `[${b.kind}]`;
  const label =
    b.field === 'thinking'
      ? '[thinking]\n'
      : b.field === 'summary'
        ? '[summary]\n'
        : b.field === 'system'
          ? '[system] '
          : '';
  return `${label}${b.text}${ellipsis(b)}`;
}

export function formatRead(
  result: ReadResult,
  home: (path: string) => string = (p) => p,
  hints: ReadHints = CLI_READ_HINTS,
): string {
  const s = result.session;
  const out: string[] = [];
  const when = [shortTime(s.startedAt), shortTime(s.endedAt)].filter(Boolean).join(' → ');
  out.push(
    `Session ${s.externalId} · ${s.agent}${s.project ? ' · ' + home(s.project) : ''}${when ? ' · ' + when : ''}`,
  );
  if (s.title) out.push(s.title.replace(/\s+/g, ' ').trim());
  out.push(`Messages ${result.from}-${result.to} of ${s.messages}`);
  let lastDay = '';
  for (const m of result.messages) {
    if (m.blocks.length === 0) continue;
    out.push('');
    // The date is printed when it changes; otherwise only the time.
    const time = shortTime(m.timestamp);
    const day = time.slice(0, 10);
    const shown = day && day === lastDay ? time.slice(11) : time;
    if (day) lastDay = day;
    const meta = [
      m.kind !== 'prompt' && m.kind !== 'response' && m.kind !== 'tool_output' ? m.kind : '',
      shown,
      m.removed ? '(removed from source)' : '',
    ]
      .filter(Boolean)
      .join(' · ');
    out.push(`#${m.n} ${m.role}${meta ? ' · ' + meta : ''}`);
    for (const b of m.blocks) out.push(renderBlock(b, hints));
  }
  if (result.wordLimit !== null) {
    out.push('');
    out.push(`[Limited to ${result.wordLimit} words per field. ${hints.more(result.skip + result.wordLimit)}]`);
  }
  if (result.charLimit !== undefined)
    out.push('', `[Cut at ${groupDigits(result.charLimit)} characters in all. Read fewer messages, or skip words.]`);
  return out.join('\n');
}
