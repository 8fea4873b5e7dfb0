// Owns the SpecStory source adapter: Markdown exports of editor chats (Cursor, VS Code Copilot, …) kept in
// a project's `.specstory/history/`, one session per file.
import type { FileAdapter } from '../types.js';
import { parseSpecStoryFile } from './parser.js';
import { detectSpecStoryFile, discoverSpecStoryExports, specstoryDefaultRoots } from './paths.js';

export const specstoryAdapter: FileAdapter = {
  agent: 'specstory',
  displayName: 'SpecStory exports',
  locations: '`.specstory/history/` in folders listed in `STRATA_SPECSTORY_PATHS` or passed to `ingest`',
  formats: ['`.specstory/history/*.md` (Cursor, VS Code Copilot and other editors’ chats, exported by SpecStory)'],
  format: 'file',
  defaultRoots: specstoryDefaultRoots,
  detect: detectSpecStoryFile,
  discover: discoverSpecStoryExports,
  parseFile: (ctx) => parseSpecStoryFile(ctx.path),
};
