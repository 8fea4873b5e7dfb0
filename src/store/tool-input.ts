// Owns how a tool call's input is stored: once, when its JSON is the block's text.

/**
 * `blocks.tool_input` holding '' means "the input's JSON is the block's text" (what most adapters write
 * for a tool call): those bytes are then stored once, not twice.
 */
export const TOOL_INPUT_IS_TEXT = '';

/** The tool_input column value for a tool input's JSON and its block's text. */
export function storedToolInput(json: string | null, text: string): string | null {
  return json !== null && json === text ? TOOL_INPUT_IS_TEXT : json;
}

/** A stored tool_input back to the input's JSON text (null when the block has no input). */
export function toolInputJson(stored: string | null, text: string | null): string | null {
  return stored === TOOL_INPUT_IS_TEXT ? text : stored;
}
