// The LongMemEval-S corpus as one store: its distinct haystack sessions (19,195) written as Claude Code
// transcripts (<root>/-work-lme/<id>.jsonl; copies k > 1 get ids suffixed _k), and its questions.
// Shared by bench/push.mjs and bench/retrieval.mjs; see bench/longmemeval.mjs for how to restore the data.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The distinct haystack sessions and the non-abstention questions of the 500 files in `dataDir`. */
export function loadLmeCorpus(dataDir) {
  const sessions = new Map();
  const questions = [];
  for (const f of readdirSync(dataDir).filter((n) => n.endsWith('.json'))) {
    const q = JSON.parse(readFileSync(join(dataDir, f), 'utf8'));
    if (!q.question_id.endsWith('_abs')) questions.push(q.question);
    q.haystack_session_ids.forEach((id, i) => {
      if (!sessions.has(id)) sessions.set(id, { date: q.haystack_dates[i], turns: q.haystack_sessions[i] });
    });
  }
  return { sessions, questions };
}

function lmeTime(text) {
  const m = /^(\d{4})\/(\d{2})\/(\d{2}) \(\w+\) (\d{2}):(\d{2})$/.exec(text ?? '');
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]) : Date.UTC(2023, 0, 1);
}

/** Writes `copies` copies of every session under root; returns the bytes written. */
export function writeLmeCorpus(root, sessions, copies = 1) {
  const dir = join(root, '-work-lme');
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  for (let k = 1; k <= copies; k++) {
    for (const [base, s] of sessions) {
      const id = k === 1 ? base : `${base}_${k}`;
      const start = lmeTime(s.date);
      const lines = s.turns.map((t, i) =>
        JSON.stringify({
          type: t.role,
          uuid: `${id}-${i}`,
          sessionId: id,
          cwd: '/work/lme',
          timestamp: new Date(start + i * 60_000).toISOString(),
          message: { role: t.role, content: t.role === 'assistant' ? [{ type: 'text', text: t.content }] : t.content },
        }),
      );
      const text = `${lines.join('\n')}\n`;
      bytes += Buffer.byteLength(text);
      writeFileSync(join(dir, `${id}.jsonl`), text);
    }
  }
  return bytes;
}
