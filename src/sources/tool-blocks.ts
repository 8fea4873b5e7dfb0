// Tool call and result blocks of the JSON part formats (Amp, Goose, Factory Droid): a call records its
// tool's name under its id, so the result that answers it carries that name too.
import type { Block } from '../shared/model.js';

export type ToolNames = Map<string, string>;

export function toolCallBlock(name: string, input: unknown, id: string | undefined, toolNames: ToolNames): Block {
  const block: Block = { kind: 'tool_call', text: JSON.stringify(input), toolName: name, toolInput: input };
  block.textIsInput = true;
  if (id) {
    block.toolCallId = id;
    toolNames.set(id, name);
  }
  return block;
}

/** A tool result block answering call `id`, named after that call when it was seen. */
export function toolResultBlock(text: string, id: string | undefined, toolNames: ToolNames): Block {
  const block: Block = { kind: 'tool_result', text };
  if (id) {
    block.toolCallId = id;
    const name = toolNames.get(id);
    if (name) block.toolName = name;
  }
  return block;
}
