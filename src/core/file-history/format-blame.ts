// Owns the text output of `strata blame`: one line per message (time, action, session#message, agent,
// tool, title), then the edit's diff lines indented, or the excerpt that mentions the file.
import type { FileHistory } from './file-history.js';

const MAX_DIFF_LINES = 40;

export function formatBlame(history: FileHistory): string {
  const out: string[] = [];
  for (const e of history.entries) {
    const time = e.timestamp ? e.timestamp.slice(0, 16).replace('T', ' ') : '                ';
    const title = (e.title ?? '').replace(/\s+/g, ' ').slice(0, 70);
    out.push(
      [
        time,
        e.action.padEnd(9),
        `${e.shortId} ${e.message}`.padEnd(14),
        e.agent.padEnd(11),
        (e.toolName ?? '').padEnd(10),
        title,
      ]
        .join('  ')
        .trimEnd(),
    );
    for (const h of e.hunks) {
      if (h.range) out.push(`    ${h.path} (now lines ${h.range.start}-${h.range.end})`);
      const lines = h.lines.filter((l) => !l.startsWith(' ') || h.lines.length <= MAX_DIFF_LINES);
      for (const l of lines.slice(0, MAX_DIFF_LINES)) out.push(`    ${l}`);
      if (lines.length > MAX_DIFF_LINES) out.push(`    … ${lines.length - MAX_DIFF_LINES} more lines`);
    }
    if (e.excerpt) out.push(`    ${e.excerpt}`);
  }
  if (history.entries.length < history.total)
    out.push(`(${history.total - history.entries.length} older entries not shown; raise --limit)`);
  return out.join('\n');
}
