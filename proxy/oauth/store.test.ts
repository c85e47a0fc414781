/**
 * The credentials file (store.ts) in a temporary HOME / XDG_CONFIG_HOME: where it lives per
 * OS, created 0600 in a 0700 folder, written whole (no temporary file left), keyed by server and
 * client, forgotten per server, and refused — with the reason — when others may read it, when it is
 * not JSON, or when it is not Loupe's.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CredentialFile, credentialFilePath, credentialStoreFor, serverKey } from './store.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-oauth-store-'));
  dirs.push(dir);
  return dir;
};

const tokens = { access_token: 'at', refresh_token: 'rt', token_type: 'Bearer', expires_in: 60 };

describe('where the file lives', () => {
  it('XDG_CONFIG_HOME, else ~/.config; macOS Application Support; Windows APPDATA', () => {
    expect(credentialFilePath({ home: '/home/u', platform: 'linux', env: { XDG_CONFIG_HOME: '/x/cfg' } })).toBe('/x/cfg/mcp-loupe/credentials.json');
    expect(credentialFilePath({ home: '/home/u', platform: 'linux', env: {} })).toBe('/home/u/.config/mcp-loupe/credentials.json');
    // A relative XDG_CONFIG_HOME is invalid (XDG base directory spec) and ignored.
    expect(credentialFilePath({ home: '/home/u', platform: 'linux', env: { XDG_CONFIG_HOME: 'cfg' } })).toBe('/home/u/.config/mcp-loupe/credentials.json');
    expect(credentialFilePath({ home: '/Users/u', platform: 'darwin', env: {} })).toBe('/Users/u/Library/Application Support/mcp-loupe/credentials.json');
    expect(credentialFilePath({ home: 'C:\\Users\\u', platform: 'win32', env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' } })).toBe('C:\\Users\\u\\AppData\\Roaming\\mcp-loupe\\credentials.json');
  });

  it('is off unless turned on', () => {
    expect(credentialStoreFor('https://x/mcp', false)).toBeUndefined();
    const file = new CredentialFile(join(temp(), 'c.json'));
    expect(credentialStoreFor('https://x/mcp', true, file)?.where).toBe(file.file);
  });
});

describe('the file', () => {
  it('is created 0600 in a 0700 folder under XDG_CONFIG_HOME, atomically, and read back per server and client', () => {
    const xdg = temp();
    const file = new CredentialFile(credentialFilePath({ home: temp(), platform: 'linux', env: { XDG_CONFIG_HOME: xdg } }));
    const a = file.forServer('https://a.example/mcp#ignored');
    expect(a.load('client-1')).toEqual({ ok: true, value: undefined });
    expect(a.save('client-1', { tokens, savedAt: 5 })).toEqual({ ok: true, value: undefined });
    expect(a.save('client-2', { clientInformation: { client_id: 'c2', client_secret: 's2' } }).ok).toBe(true);
    file.forServer('https://b.example/mcp').save('client-1', { tokens: { ...tokens, access_token: 'other' } });
    expect(file.file).toBe(join(xdg, 'mcp-loupe', 'credentials.json'));
    expect(statSync(file.file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file.file)).mode & 0o777).toBe(0o700);
    expect(readdirSync(dirname(file.file))).toEqual(['credentials.json']);
    const again = new CredentialFile(file.file).forServer('https://a.example/mcp');
    expect(again.load('client-1')).toEqual({ ok: true, value: { tokens, savedAt: 5 } });
    expect(again.load('client-2')).toMatchObject({ ok: true, value: { clientInformation: { client_id: 'c2' } } });
    expect(JSON.parse(readFileSync(file.file, 'utf8')).servers[serverKey('https://b.example/mcp')]['client-1'].tokens.access_token).toBe('other');
  });

  it('forget() removes one server and keeps the others', () => {
    const file = new CredentialFile(join(temp(), 'cfg', 'credentials.json'));
    file.forServer('https://a/mcp').save('c', { tokens });
    file.forServer('https://b/mcp').save('c', { tokens });
    expect(file.forServer('https://a/mcp').forget().ok).toBe(true);
    expect(file.forServer('https://a/mcp').load('c')).toEqual({ ok: true, value: undefined });
    expect(file.forServer('https://b/mcp').load('c')).toMatchObject({ ok: true, value: { tokens } });
  });

  it('refuses a file others can read, saying why and what to do, and does not overwrite it', () => {
    const file = new CredentialFile(join(temp(), 'credentials.json'));
    file.forServer('https://a/mcp').save('c', { tokens });
    chmodSync(file.file, 0o644);
    const loaded = file.forServer('https://a/mcp').load('c');
    expect(loaded).toEqual({ ok: false, error: expect.stringMatching(/can be read or changed by other users \(mode 0644\).*chmod 600/) });
    const saved = file.forServer('https://a/mcp').save('c', { tokens: { ...tokens, access_token: 'new' } });
    expect(saved.ok).toBe(false);
    expect(readFileSync(file.file, 'utf8')).toContain('"access_token": "at"');
  });

  it('refuses a file that is not JSON, or not a Loupe credentials file', () => {
    const dir = temp();
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"version":1,', { mode: 0o600 });
    expect(new CredentialFile(broken).forServer('https://a/mcp').load('c')).toEqual({ ok: false, error: expect.stringMatching(/is not valid JSON .*fix or delete it/) });
    const foreign = join(dir, 'foreign.json');
    writeFileSync(foreign, '{"tokens":[]}', { mode: 0o600 });
    expect(new CredentialFile(foreign).forServer('https://a/mcp').save('c', { tokens })).toEqual({ ok: false, error: expect.stringMatching(/not a Loupe credentials file/) });
    expect(readFileSync(foreign, 'utf8')).toBe('{"tokens":[]}');
  });

  it('says when the file cannot be reached (a file is in the way of its folder)', () => {
    const dir = temp();
    writeFileSync(join(dir, 'in-the-way'), '');
    const file = new CredentialFile(join(dir, 'in-the-way', 'credentials.json'));
    expect(file.forServer('https://a/mcp').save('c', { tokens })).toEqual({ ok: false, error: expect.stringMatching(/cannot read its saved credentials in .*in-the-way\/credentials\.json \(ENOTDIR/) });
  });
});
