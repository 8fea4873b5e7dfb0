// Owns the OpenCode plugin strata installs (OpenCode loads every file in its plugins folder): it runs
// `strata hook ingest --client opencode` when a session goes idle or is compacted, and adds the output
// of `strata hook context --client opencode` to the system prompt of each new session, but not to the
// request OpenCode makes to title a session (its title agent), which needs no project context.

export const OPENCODE_PLUGIN = `// strata: keeps the strata store fresh and starts sessions with the project's logbook.
// Written by \`strata hook install --client opencode\`; rewritten by the next install.
export const StrataPlugin = async ({ $, directory }) => {
  const contexts = new Map();
  // OpenCode's title request: its title agent, whose system prompt opens as a title generator.
  const isTitleRequest = (input, system) => {
    const agent = typeof input?.agent === 'string' ? input.agent : input?.agent?.name;
    if (agent === 'title') return true;
    return (system ?? []).some((s) => typeof s === 'string' && /^\\s*You are a title generator/i.test(s));
  };
  const run = async (args, payload) => {
    try {
      const out = await $\`echo \${JSON.stringify(payload)} | strata hook \${args}\`.quiet().nothrow();
      return out.exitCode === 0 ? out.stdout.toString() : '';
    } catch {
      return '';
    }
  };
  return {
    event: async ({ event }) => {
      if (event.type !== 'session.idle' && event.type !== 'session.compacted') return;
      const sessionID = event.properties?.sessionID;
      const payload = { hook_event_name: event.type, session_id: sessionID, cwd: directory };
      await run(['ingest', '--client', 'opencode'], payload);
    },
    'experimental.chat.system.transform': async (input, output) => {
      if (isTitleRequest(input, output.system)) return;
      const sessionID = input?.sessionID ?? '';
      if (!contexts.has(sessionID)) {
        const payload = { hook_event_name: 'session.created', session_id: sessionID, cwd: directory };
        const text = await run(['context', '--client', 'opencode'], payload);
        let context = '';
        try {
          context = text ? JSON.parse(text).additionalContext ?? '' : '';
        } catch {}
        contexts.set(sessionID, context);
      }
      const context = contexts.get(sessionID);
      if (context) output.system.push(context);
    },
  };
};
`;
