// Owns the Claude Code retrieval skill and subagent that `strata skill install` writes: a minimal
// "memory archaeology" prompt whose context is pre-populated by one !`strata skill context` line (the full
// git log, this project's sessions or else the newest ones, and the --help of index, search and read).

export interface SkillFile {
  /** Path relative to the `.claude` folder's parent (project root or home). */
  path: string;
  content: string;
}

/**
 * One plain command: Claude Code's permission check refuses `!` commands holding separators (`||`, `;`,
 * `$(...)`), and its output already holds every fallback (see skillContext).
 */
const DYNAMIC_CONTEXT = '!`strata skill context`';

/** A skill only the retrieval agent preloads (frontmatter `skills:`): `!` lines run in skills, not agent bodies. */
const CONTEXT_SKILL = 'strata-context';

const ROLE = `You are a memory archaeologist. Past coding sessions lie in layers beneath this project: every
prompt, every answer, every command that was run. Your job is retrieval, not interpretation: brush
away the noise, uncover the artifacts (decisions, discussions, realizations, failed attempts) that answer
the question, and bring them back with their provenance (session id and message number) and the words
that were actually said. Quote; do not speculate. Stay within the excavation: you recover history,
you do not research the wider world or change the project.

Dig with \`strata search\`, \`strata read\` and \`strata index\` (through Bash). The git log, this
project's sessions and the commands' help come preloaded (skill ${CONTEXT_SKILL}); if they are not above,
run \`strata skill context\` first.`;

export function skillFiles(): SkillFile[] {
  const skill =
    `---
name: strata-retrieval
description: Recover past decisions, discussions and implementations from earlier coding-agent sessions ` +
    `(Claude Code, Codex, Gemini, Aider, OpenCode, Puffin) stored by strata. Use when asked what was decided, ` +
    `why something is the way it is, what was tried before, or anything about earlier sessions.
context: fork
agent: strata-retrieval
---

${ROLE}

Question: $ARGUMENTS
`;
  const context =
    `---
name: ${CONTEXT_SKILL}
description: Project history (git log), the sessions strata holds for this project and the strata command ` +
    `reference, preloaded by the strata-retrieval agent.
user-invocable: false
---

${DYNAMIC_CONTEXT}
`;
  const agent =
    `---
name: strata-retrieval
description: Memory retrieval over past coding-agent sessions with strata (search, read, index). Use for ` +
    `questions about earlier work, past decisions and their reasons.
tools: Bash, Read, Glob, Grep
skills:
  - ${CONTEXT_SKILL}
---

${ROLE}
`;
  return [
    { path: '.claude/skills/strata-retrieval/SKILL.md', content: skill },
    { path: `.claude/skills/${CONTEXT_SKILL}/SKILL.md`, content: context },
    { path: '.claude/agents/strata-retrieval.md', content: agent },
  ];
}

export interface SkillContextParts {
  /** `git log --oneline` of the working folder, or undefined outside a repository. */
  gitLog: string | undefined;
  cwd: string;
  /** `strata index` lines of this project's sessions (empty when none). */
  projectLines: string[];
  /** `strata index` lines of the newest sessions, shown when the project has none. */
  latestLines: () => string[];
  /** Why there is no index (no store yet), if so. */
  storeProblem?: string;
  /** --help of index, search and read. */
  helps: string[];
}

/** The text `strata skill context` prints: every fallback decided here, so the skill needs no shell logic. */
export function skillContext(parts: SkillContextParts): string {
  const out = ['## Project history (git)', parts.gitLog?.trim() || '(not a git repository, or no commits)', ''];
  if (parts.storeProblem) out.push('## Sessions', `(${parts.storeProblem})`);
  else if (parts.projectLines.length > 0)
    out.push(`## Sessions of this project (${parts.cwd}), newest first`, ...parts.projectLines);
  else {
    const latest = parts.latestLines();
    out.push(
      '## Sessions (none stored for this project; the newest of all projects)',
      ...(latest.length > 0 ? latest : ['(no sessions stored: run `strata ingest`)']),
    );
  }
  out.push('', '## Tools', ...parts.helps.map((h) => h.trimEnd() + '\n'));
  return out.join('\n').trimEnd();
}
