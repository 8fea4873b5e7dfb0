// Owns how the pack and code tools reach files: every path goes through resolveConfined against the
// server's roots, and a segment's context database must resolve inside them too.
import { openSegmentContext, type SegmentContext } from '../core/context-pack/runtime.js';
import { resolveSegment } from '../core/context-pack/segment.js';
import { resolveConfined } from '../shared/confined-path.js';
import type { ToolContext } from './tool.js';

/** Opens the context pack of `segment` (a folder under a root; default the first root). */
export function openConfinedSegment(ctx: ToolContext, segment: string | undefined): SegmentContext {
  const dir = resolveConfined(ctx.roots, segment ?? '.');
  const paths = resolveSegment({ repoRoot: dir });
  const open = openSegmentContext({ repoRoot: dir });
  try {
    resolveConfined(ctx.roots, paths.dbPath);
  } catch (error) {
    open.close();
    throw error;
  }
  return open;
}
