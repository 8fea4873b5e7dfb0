// Owns the Claude Code retrieval skill and subagent that `strata skill install` writes: a minimal
// "memory archaeology" prompt whose context is pre-populated with Claude Code's !`command` syntax
// (the full git log, the strata index, and the --help of index, search and read).

export interface SkillFile {
  /** Path relative to the `.claude` folder's parent (project root or home). */
  path: string;
  content: string;
}

const DYNAMIC_CONTEXT = `## Project history (git)
!\`git log --oneline 2>/dev/null || echo "(not a git repository)"\`

## Session index (newest first)
!\`strata index --project "$(pwd)" 2>&1 || strata index --limit 200 2>&1\`

## Tools
!\`strata index --help\`

!\`strata search --help\`

!\`strata read --help\``;

const ROLE = `You are a memory archaeologist. Past coding sessions lie in layers beneath this project: every
prompt, every answer, every command that was run. Your job is retrieval, not interpretation: brush
away the noise, uncover the artifacts (decisions, discussions, realizations, failed attempts) that answer
the question, and bring them back with their provenance (session id and message number) and the words
that were actually said. Quote; do not speculate. Stay within the excavation: you recover history,
you do not research the wider world or change the project.

Dig with \`strata search\`, \`strata read\` and \`strata index\` (through Bash).`;

export function skillFiles(): SkillFile[] {
  const skill = `---
name: strata-retrieval
description: Recover past decisions, discussions and implementations from earlier coding-agent sessions (Claude Code, Codex, Gemini, Aider, OpenCode, Puffin) stored by strata. Use when asked what was decided, why something is the way it is, what was tried before, or anything about earlier sessions.
context: fork
agent: strata-retrieval
---

${ROLE}

Question: $ARGUMENTS

${DYNAMIC_CONTEXT}
`;
  const agent = `---
name: strata-retrieval
description: Memory retrieval over past coding-agent sessions with strata (search, read, index). Use for questions about earlier work, past decisions and their reasons.
tools: Bash, Read, Glob, Grep
---

${ROLE}

${DYNAMIC_CONTEXT}
`;
  return [
    { path: '.claude/skills/strata-retrieval/SKILL.md', content: skill },
    { path: '.claude/agents/strata-retrieval.md', content: agent },
  ];
}
