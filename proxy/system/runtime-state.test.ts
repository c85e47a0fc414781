/** The runtime state file a tap finds Loupe by (runtime-state.ts): private, whole, and only believed when it is ours and alive. */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRuntimeState, runtimeDir, runtimeStatePath, writeRuntimeState } from './runtime-state.ts';

const fresh = () => join(mkdtempSync(join(tmpdir(), 'loupe-state-')), 'mcp-loupe');
const state = { url: 'http://127.0.0.1:6280/?token=abc', pid: process.pid, version: '1.2.3' };

describe('runtime state', () => {
  it('lives in $XDG_RUNTIME_DIR/mcp-loupe, else in a per-user folder of the temporary directory', () => {
    expect(runtimeDir({ XDG_RUNTIME_DIR: '/run/user/1000' }, '/tmp')).toBe('/run/user/1000/mcp-loupe');
    expect(runtimeDir({}, '/tmp')).toBe(`/tmp/mcp-loupe-${process.getuid!()}`);
  });

  it('writes {url, pid, version, startedAt} 0600 in a 0700 folder and reads it back', () => {
    const dir = fresh();
    const remove = writeRuntimeState(state, dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(runtimeStatePath(dir)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(runtimeStatePath(dir), 'utf8'));
    expect(stored).toMatchObject(state);
    expect(typeof stored.startedAt).toBe('number');
    expect(readRuntimeState(dir)).toMatchObject(state);
    remove();
    expect(existsSync(runtimeStatePath(dir))).toBe(false);
  });

  it('ignores a file others could read, and one whose Loupe is gone', () => {
    const dir = fresh();
    writeRuntimeState(state, dir);
    chmodSync(runtimeStatePath(dir), 0o644);
    expect(readRuntimeState(dir)).toBeUndefined();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    writeRuntimeState({ ...state, pid: Number(dead.stdout.toString()) }, dir);
    expect(readRuntimeState(dir)).toBeUndefined();
  });

  it('leaves the file of a Loupe that started since alone when the first one removes its own', () => {
    const dir = fresh();
    const removeFirst = writeRuntimeState(state, dir);
    writeFileSync(runtimeStatePath(dir), JSON.stringify({ ...state, pid: 1 }), { mode: 0o600 });
    removeFirst();
    expect(existsSync(runtimeStatePath(dir))).toBe(true);
  });
});
