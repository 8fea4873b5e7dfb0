// Offline logbook noise patterns found by grading fixture logbooks next to their sources (bench/logbook-
// quality.mjs): each sentence here came out as an event before and is no event now, or comes out as the
// right one.
import { describe, expect, it } from 'vitest';
import { extractLogbookEvents, type LogbookChunkMessage, type LogbookEvent } from '../index.js';

type Message = Omit<LogbookChunkMessage, 'id' | 'timestamp'>;
const chunk = (messages: Message[], existingEvents: LogbookEvent[] = []) => ({
  conversationId: 'c1',
  messages: messages.map((m, i) => ({ ...m, id: String(i + 1), timestamp: `2026-03-01T10:${10 + i}:00.000Z` })),
  existingEvents,
});
const events = (messages: Message[], existing: LogbookEvent[] = []) =>
  extractLogbookEvents(chunk(messages, existing)).events;
const contents = (messages: Message[]) => events(messages).map((e) => e.content);
const agent = (text: string): Message => ({ role: 'assistant', text });
const searchBlock = 'aider/repomap.py\n```python\n<<<<<<< SEARCH\n    x = 1\n=======\n    x = 2\n>>>>>>> REPLACE\n```';

describe('extractive logbook noise', () => {
  it('takes a decision from an offer only once the user accepts it', () => {
    const offer =
      "Right now it's a flat black strip with just icons. Here's what I'd change:\n\n" +
      '1. **Floating bar** — add margins so it floats above the desktop edge\n' +
      '2. **Show values** — battery %, CPU %, volume % next to icons instead of just the icon\n\n' +
      'Want me to go ahead with all of that, or any specific direction you prefer?';
    expect(contents([agent(offer)])).toEqual([]);
    expect(contents([agent(offer), { role: 'user', text: 'no, leave it as it is?' }])).toEqual([]);
    // Accepted ("yes all of it"), what was offered is decided.
    expect(contents([agent(offer), { role: 'user', text: 'yes all of it' }])).toEqual([
      'Show values — battery %, CPU %, volume % next to icons instead of just the icon',
    ]);
  });

  it('skips words to the user, apologies, fragments, quoted labels and "can be" proposals', () => {
    expect(
      contents([
        agent("You'll see the custom cyan crosshair cursor instead of the default mouse pointer!"),
        agent('You are right, sorry. I was trying the CLI tool (`agent-intercom-ctl`) instead of the MCP tool.'),
        agent('instead of proceeding to make the update to the workflow rule file as the user prefers.'),
        agent('"Switch to a new chat mode"'),
        agent(
          'To ensure I always run the relevant Minsky CLI commands when asked about available tasks, the ' +
            'minsky-workflow rule can be updated with an explicit directive.',
        ),
        agent('It appears that the issue is in the `test_map_tokens_option` test.'),
        { role: 'user', text: 'yes do that, rather than just guessing based on the content' },
      ]),
    ).toEqual([]);
  });

  it('keeps a change the agent made over a restatement, a plan or a labelled list item', () => {
    expect(
      contents([
        agent(
          'These changes will make the JSON output more readable by using an indentation of 4 spaces instead of 2.',
        ),
        agent(
          'This ensures that each instance of `ChatChunks` will have its own separate list for each attribute, ' +
            'rather than sharing a single list across all instances.',
        ),
        agent('Updates the x-axis title to the word Version instead of the release date.'),
        agent("Let's modify the test to mock the httpx library instead of mocking the completion function directly."),
        agent("We'll use the `testsr.py` file for this purpose."),
        agent('1. **Virtualization Backend:** Uses Docker with KVM (requires `/dev/kvm` support)'),
        agent('**DailyReports.tsx**: Spec requires fields for activities and issues as JSON arrays'),
        agent('The processing time is stored in `self.map_processing_time`.'),
        agent('Note that we need to import the `time` module for the timestamp.'),
        agent('Used `Result<T, E>` instead of raising exceptions for `factorial()`'),
        agent(
          'Instead of mocking `litellm.completion`, we now mock `httpx.Client.post`, which is the underlying ' +
            'HTTP request method used by litellm.',
        ),
      ]),
    ).toEqual([
      'Used `Result<T, E>` instead of raising exceptions for `factorial()`',
      'Instead of mocking `litellm.completion`, we now mock `httpx.Client.post`, which is the underlying HTTP ' +
        'request method used by litellm.',
    ]);
  });

  it("keeps the agent's diagnosis only when an edit or a fix follows it, as a bug", () => {
    const unproven = [
      agent('The issue is that the global installation has not been run yet. Let me run the installer for you:'),
      agent('→ Bash: /home/ken/github/bin/flow-install-global.sh'),
      { role: 'tool', text: '← Bash: installed flow into ~/.claude/bin' },
    ];
    expect(contents(unproven)).toEqual([]);
    const proven = [
      agent(
        'The error is occurring because the `max_map_tokens` attribute of the `RepoMap` mock object is itself ' +
          `a \`MagicMock\`, which can't be compared to an integer. Here is the change:\n\n${searchBlock}`,
      ),
    ];
    expect(events(proven)).toMatchObject([{ type: 'bug', content: expect.stringMatching(/^The error is occurring/) }]);
  });

  it('drops a diagnosis that names nothing, a passed-argument detail and a description of a return value', () => {
    expect(
      contents([
        agent(`The issue is the format mismatch between what we send and what the client expects.\n\n${searchBlock}`),
        agent(
          'We pass `all_files` to `self.io.get_input()` instead of just `self.get_inchat_relative_files()`.\n\n' +
            searchBlock,
        ),
        agent(
          'We return `None` from `get_counts_for_file` if there are no non-blank lines, which is consistent ' +
            "with the existing behavior for files that can't be blamed.",
        ),
      ]),
    ).toEqual([]);
  });

  it('does not log a failure again when restated in other words, or a fix already recorded', () => {
    const earlier: LogbookEvent = {
      timestamp: '2026-03-01T09:00:00.000Z',
      type: 'bug',
      content: 'The problem is that we are not correctly accessing the data in the tooltip callback.',
      resolution: 'Fixed the broken delegation pattern - Plan-stream now uses the streaming service directly',
    };
    const later = [
      agent(`I understand. The issue is in how we're accessing the data in the tooltip callback.\n\n${searchBlock}`),
      agent('✅ **Fixed broken delegation** - Plan-stream now uses streaming service directly'),
    ];
    expect(events(later, [earlier])).toEqual([]);
  });

  it('says "edited" only after the failing command is run again after the edit', () => {
    const found = events([
      agent('→ exec_command: mix precommit'),
      { role: 'tool', text: '← exec_command FAILED: (RuntimeError) failed to start Mix.PubSub', failed: true },
      agent('→ exec_command: mix precommit'),
      { role: 'tool', text: '← exec_command FAILED: (RuntimeError) failed to start Mix.PubSub', failed: true },
      agent('→ apply_patch: update lib/backoffice_web/admin_live/custom_cart_form_live.ex'),
      { role: 'tool', text: '← apply_patch: Success. Updated the following files' },
      agent('→ exec_command: mix compile'),
      { role: 'tool', text: '← exec_command: Compiling 3 files (.ex)' },
    ]);
    expect(found.filter((e) => e.resolution?.startsWith('edited'))).toEqual([]);
  });
});
