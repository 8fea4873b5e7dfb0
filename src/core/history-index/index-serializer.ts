// Owns IndexSerializer: the HistoryIndex JSON, validated against schemas/history-index.schema.json
// (draft 2020-12, ajv) on write and on read, written atomically (temp file + fsync + rename) so a failed
// write never corrupts an existing index.
import { existsSync, readFileSync } from 'node:fs';
import { StrataError, describeError } from '../../shared/errors.js';
import { writeChunksAtomic, writeFileAtomic } from '../../shared/atomic-write.js';
import { jsonChunks } from '../../shared/json-chunks.js';
import { HISTORY_INDEX_SCHEMA_URL, schemaErrors, schemaValidator } from './schema-files.js';
import type { HistoryIndex } from './types.js';

/** Version of the index format written (semver); a different major version is rebuilt, never reused. */
export const INDEX_VERSION = '1.0.0';

export type WriteFile = (path: string, data: string) => void;

/** The index file's text in pieces: the same bytes as serialize(). */
function* indexText(index: HistoryIndex): Generator<string> {
  yield* jsonChunks(index, 1);
  yield '\n';
}

export class IndexSerializer {
  static validate(index: unknown): { valid: boolean; errors: string[] } {
    const errors = schemaErrors(schemaValidator(HISTORY_INDEX_SCHEMA_URL), index);
    return { valid: errors.length === 0, errors };
  }

  static serialize(index: HistoryIndex): string {
    IndexSerializer.assertValid(index, 'history index to write');
    return JSON.stringify(index, null, 1) + '\n';
  }

  static deserialize(json: string, where = 'history index'): HistoryIndex {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new StrataError('SCHEMA', `${where} is not valid JSON: ${describeError(error)}`);
    }
    IndexSerializer.assertValid(value, where);
    return value;
  }

  /** Validates, then writes through `writeFile` (default: temp file + fsync + rename). */
  static async writeIndex(
    index: HistoryIndex,
    outputPath: string,
    writeFile: WriteFile = writeFileAtomic,
  ): Promise<void> {
    IndexSerializer.assertValid(index, 'history index to write');
    try {
      // The default writer streams the text (one string of a 100,000-prompt index is tens of MB).
      if (writeFile === writeFileAtomic) writeChunksAtomic(outputPath, indexText(index));
      else writeFile(outputPath, JSON.stringify(index, null, 1) + '\n');
    } catch (error) {
      throw new StrataError(
        'IO',
        `cannot write history index ${outputPath}: ${describeError(error)}; the previous index (if any) was left ` +
          `untouched`,
        { cause: error },
      );
    }
  }

  /** The index at `indexPath`, or null when there is none. Throws SCHEMA when it is not a valid index. */
  static async readIndex(indexPath: string): Promise<HistoryIndex | null> {
    if (!existsSync(indexPath)) return null;
    return IndexSerializer.deserialize(readFileSync(indexPath, 'utf8'), indexPath);
  }

  static assertValid(value: unknown, where: string): asserts value is HistoryIndex {
    const { valid, errors } = IndexSerializer.validate(value);
    if (!valid)
      throw new StrataError('SCHEMA', `${where} does not match history-index.schema.json: ${errors.join('; ')}`);
    const major = (value as HistoryIndex).version.split('.')[0];
    if (major !== INDEX_VERSION.split('.')[0])
      throw new StrataError(
        'SCHEMA',
        `${where} has index version ${(value as HistoryIndex).version}; this strata reads ${INDEX_VERSION}`,
      );
  }
}
