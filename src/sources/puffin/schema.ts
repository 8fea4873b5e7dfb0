// Owns the boundary checks for Puffin `.puffin/history.json` records: a prompt and its response are
// validated by hand (no throw), timestamps accepted as epoch ms or ISO strings.

interface PuffinFileChange {
  path: string;
  action?: string;
  timestamp?: string;
}

interface PuffinResponse {
  content: string;
  timestamp?: string;
  sessionId?: string;
  cost?: number;
  turns?: number;
  durationMs?: number;
  filesModified: PuffinFileChange[];
}

export interface PuffinPrompt {
  id: string;
  /** null for a thread root. */
  parentId: string | null;
  content: string;
  title?: string;
  timestamp?: string;
  /** undefined when the record has `response: null` or no response; `invalid` when it is not an object. */
  response?: PuffinResponse | 'invalid';
  /** Optional Puffin fields kept as metadata (storyId, sprintId, type, status, ...). */
  extra: Record<string, unknown>;
}

export type PromptCheck = { ok: true; prompt: PuffinPrompt } | { ok: false; reason: string };

const EXTRA_FIELDS = ['storyId', 'storyIds', 'sprintId', 'type', 'status', 'branchType'] as const;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Epoch milliseconds or an ISO/date string → ISO 8601; anything else → undefined. */
function toIsoTimestamp(value: unknown): string | undefined {
  let ms: number | undefined;
  if (typeof value === 'number' && Number.isFinite(value)) ms = value;
  else if (typeof value === 'string' && value.trim() !== '') {
    ms = /^\d+$/.test(value.trim()) ? Number(value) : Date.parse(value);
  }
  if (ms === undefined || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return undefined;
  return new Date(ms).toISOString();
}

function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function stringId(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function checkFileChanges(value: unknown): PuffinFileChange[] {
  if (!Array.isArray(value)) return [];
  const out: PuffinFileChange[] = [];
  for (const item of value) {
    if (typeof item === 'string') out.push({ path: item });
    else if (isRecord(item) && typeof item.path === 'string') {
      const change: PuffinFileChange = { path: item.path };
      if (typeof item.action === 'string') change.action = item.action;
      const ts = toIsoTimestamp(item.timestamp);
      if (ts) change.timestamp = ts;
      out.push(change);
    }
  }
  return out;
}

/**
 * Text of a content value: a string; missing or null as '' (Puffin itself reads `content || ''`); text parts or a
 * `{text}` object joined; undefined for any other shape.
 */
function contentText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (isRecord(value)) return typeof value.text === 'string' ? value.text : undefined;
  if (!Array.isArray(value)) return undefined;
  const texts = value.flatMap((p) =>
    typeof p === 'string' ? [p] : isRecord(p) && typeof p.text === 'string' ? [p.text] : [],
  );
  return texts.join('\n');
}

function checkResponse(value: unknown): PuffinResponse | 'invalid' | undefined {
  if (value === null || value === undefined) return undefined;
  if (!isRecord(value)) return 'invalid';
  const response: PuffinResponse = {
    content: contentText(value.content) ?? '',
    filesModified: checkFileChanges(value.filesModified),
  };
  const ts = toIsoTimestamp(value.timestamp);
  if (ts) response.timestamp = ts;
  if (typeof value.sessionId === 'string') response.sessionId = value.sessionId;
  const cost = finiteNumber(value.cost);
  if (cost !== undefined) response.cost = cost;
  const turns = finiteNumber(value.turns);
  if (turns !== undefined) response.turns = turns;
  const duration = finiteNumber(value.duration);
  if (duration !== undefined) response.durationMs = duration;
  return response;
}

/** Validates one entry of a branch's `prompts` array. Never throws. */
export function checkPrompt(raw: unknown): PromptCheck {
  if (!isRecord(raw))
    return { ok: false, reason: `prompt is ${Array.isArray(raw) ? 'an array' : typeof raw}, not an object` };
  const id = stringId(raw.id);
  if (!id) return { ok: false, reason: 'prompt without an id' };
  const content = contentText(raw.content);
  // Without content a prompt is worth keeping only for its response.
  const empty = raw.content == null && raw.response == null;
  if (content === undefined || empty) return { ok: false, reason: `prompt ${id} without string content` };
  const parentId = raw.parentId === null || raw.parentId === undefined ? null : stringId(raw.parentId);
  if (parentId === undefined) return { ok: false, reason: `prompt ${id} has an invalid parentId` };
  const prompt: PuffinPrompt = { id, parentId, content, extra: {} };
  if (typeof raw.title === 'string' && raw.title.trim() !== '') prompt.title = raw.title;
  const ts = toIsoTimestamp(raw.timestamp);
  if (ts) prompt.timestamp = ts;
  const response = checkResponse(raw.response);
  if (response !== undefined) prompt.response = response;
  for (const field of EXTRA_FIELDS) {
    if (raw[field] !== undefined && raw[field] !== null) prompt.extra[field] = raw[field];
  }
  return { ok: true, prompt };
}
