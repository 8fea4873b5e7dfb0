// Where tests find the repository and the real agent fixtures, and their temp folders.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '..', '..');
export const FIXTURES = resolve(REPO, '..', 'shared', 'fixtures', 'real');

export function tempDir(prefix = 'strata-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Real agent files kept inside this repository (provenance in its SOURCES.tsv). */
export const REAL_EXTRA = resolve(REPO, 'test', 'fixtures', 'real-extra');
