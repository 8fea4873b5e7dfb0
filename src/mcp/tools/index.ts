// Owns the list of MCP tools: one file per tool, one line each here.
import type { StrataTool } from '../tool.js';
import { searchTool } from './search.js';
import { sessionsTool } from './sessions.js';
import { readTool } from './read.js';
import { packSearchTool } from './pack-search.js';
import { packGetTool } from './pack-get.js';
import { codeMapTool } from './code-map.js';
import { codeSymbolTool } from './code-symbol.js';
import { logbookTool } from './logbook.js';

export const TOOLS: StrataTool<any, any>[] = [
  searchTool,
  sessionsTool,
  readTool,
  packSearchTool,
  packGetTool,
  codeMapTool,
  codeSymbolTool,
  logbookTool,
];
