import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfigFile, writeConfigFile } from './config-file.js';
import { mergeMcpConfig } from './mcp-config.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'strata-config-file-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const merge = (path: string) => (current: string | undefined) => mergeMcpConfig('gemini', current, path);
const mode = (path: string) => statSync(path).mode & 0o777;

describe('writeConfigFile keeps what the file is', () => {
  it('keeps a 0600 file 0600 (and its backup too)', () => {
    const path = join(dir, 'settings.json');
    writeFileSync(path, '{ "apiKey": "secret-value" }\n', { mode: 0o600 });
    chmodSync(path, 0o600);
    const result = writeConfigFile(path, merge(path));
    expect(result.status).toBe('updated');
    expect(mode(path)).toBe(0o600);
    expect(mode(result.backup!)).toBe(0o600);
  });

  it.runIf(process.getuid?.() === 0)('keeps the owner of a file another user owns (root only)', () => {
    const path = join(dir, 'settings.json');
    writeFileSync(path, '{}\n');
    chownSync(path, 4242, 4343);
    writeConfigFile(path, merge(path));
    expect([statSync(path).uid, statSync(path).gid]).toEqual([4242, 4343]);
  });

  it('refuses a read-only file in one line and leaves it as it was', () => {
    const path = join(dir, 'settings.json');
    writeFileSync(path, '{}\n');
    chmodSync(path, 0o444);
    expect(() => writeConfigFile(path, merge(path))).toThrow(
      /settings.json is read-only \(mode 0444\): make it writable first; left it unchanged$/,
    );
    expect(readFileSync(path, 'utf8')).toBe('{}\n');
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });

  it('writes through a symlink to its target (dotfiles) and keeps the link', () => {
    mkdirSync(join(dir, 'dotfiles'));
    const target = join(dir, 'dotfiles', 'settings.json');
    writeFileSync(target, '{ "theme": "dark" }\n');
    const link = join(dir, 'settings.json');
    symlinkSync(target, link);
    expect(writeConfigFile(link, merge(link)).status).toBe('updated');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8')).mcpServers.strata.command).toBe('strata');
  });

  it('refuses a dangling symlink, leaving the link', () => {
    const link = join(dir, 'settings.json');
    symlinkSync(join(dir, 'gone.json'), link);
    expect(() => writeConfigFile(link, merge(link))).toThrow(
      /settings.json is a symbolic link to .*gone.json, which does not exist; left it unchanged/,
    );
    expect(readlinkSync(link)).toBe(join(dir, 'gone.json'));
  });

  it('refuses a FIFO without blocking, and a folder in one line', () => {
    const fifo = join(dir, 'settings.json');
    execFileSync('mkfifo', [fifo]);
    expect(() => readConfigFile(fifo)).toThrow(/settings.json is not a regular file \(FIFO\); left it unchanged/);
    expect(() => writeConfigFile(fifo, merge(fifo))).toThrow(/not a regular file \(FIFO\)/);
    const folder = join(dir, 'mcp.json');
    mkdirSync(folder);
    expect(() => writeConfigFile(folder, merge(folder))).toThrow(/mcp.json is a folder, not a file; left it unchanged/);
  });
});
