/**
 * Optional persistence of OAuth credentials across launches (issue 11, "Where tokens live"): one
 * JSON file under the user's config directory, readable by its owner only, off unless the user
 * turns it on (`--remember-credentials`). Without it every credential lives in the proxy's memory
 * and dies with it, which is the safer default for an inspector pointed at many servers.
 *
 * The file holds, per server URL and per client (a pre-registered client id, a client ID metadata
 * document URL, or the client that dynamic registration made), what the SDK hands the provider to
 * keep: the client information (with a registered client's secret) and the tokens. Code verifiers
 * and `state` values are never written: they live for one sign-in.
 *
 * Why a file of our own rather than the OS keychain: no native module and no prompt, and the SDK
 * leaves storage to the application. The file is created 0600 in a 0700 folder, written atomically
 * (temporary file, fsync, rename) so that a crash never leaves half a file, and a file that others
 * may read (or that another user owns) is refused, with the reason, instead of being used.
 * Two Loupes saving at once: the later write wins (each reads, merges and renames).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** What is kept for one client of one server. */
export interface StoredCredentials {
  clientInformation?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** Milliseconds since the epoch when the tokens were saved (their `expires_in` counts from here). */
  savedAt?: number;
}

export type StoreResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** One server's part of the store, as the provider sees it. */
export interface CredentialStore {
  /** Where the credentials are kept, for messages ("saved in …"). */
  readonly where: string;
  load(clientKey: string): StoreResult<StoredCredentials | undefined>;
  save(clientKey: string, credentials: StoredCredentials): StoreResult<void>;
  /** Forgets every client of this server (the `Forget credentials` button). */
  forget(): StoreResult<void>;
}

export interface StoreLocation {
  home: string;
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
}

const FILE_NAME = 'credentials.json';
const FORMAT = 1;

interface FileContent {
  version: typeof FORMAT;
  /** server URL → client key → credentials */
  servers: Record<string, Record<string, StoredCredentials>>;
}

/** `~/.config/mcp-loupe/credentials.json` (or `$XDG_CONFIG_HOME/…`); macOS `~/Library/Application Support/…`; Windows `%APPDATA%\…`. */
export function credentialFilePath(at: StoreLocation = { home: os.homedir(), platform: process.platform, env: process.env }): string {
  const p = at.platform === 'win32' ? path.win32 : path.posix;
  if (at.platform === 'darwin') return p.join(at.home, 'Library', 'Application Support', 'mcp-loupe', FILE_NAME);
  if (at.platform === 'win32') return p.join(at.env.APPDATA ?? p.join(at.home, 'AppData', 'Roaming'), 'mcp-loupe', FILE_NAME);
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = at.env.XDG_CONFIG_HOME;
  return p.join(xdg && p.isAbsolute(xdg) ? xdg : p.join(at.home, '.config'), 'mcp-loupe', FILE_NAME);
}

/** The key of a server in the file: its URL without a fragment (which never reaches the server). */
export function serverKey(serverUrl: string): string {
  try {
    const url = new URL(serverUrl);
    url.hash = '';
    return url.href;
  } catch {
    return serverUrl;
  }
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class CredentialFile {
  /** Mode checks mean nothing on Windows, where access is governed by ACLs instead. */
  private readonly checkMode: boolean;

  constructor(
    readonly file: string = credentialFilePath(),
    platform: NodeJS.Platform = process.platform,
  ) {
    this.checkMode = platform !== 'win32';
  }

  /** The store of one server. */
  forServer(serverUrl: string): CredentialStore {
    const key = serverKey(serverUrl);
    return {
      where: this.file,
      load: (clientKey) => {
        const read = this.read();
        return read.ok ? { ok: true, value: read.value.servers[key]?.[clientKey] } : read;
      },
      save: (clientKey, credentials) =>
        this.update((content) => {
          content.servers[key] = { ...content.servers[key], [clientKey]: credentials };
        }),
      forget: () =>
        this.update((content) => {
          delete content.servers[key];
        }),
    };
  }

  /** The whole file; a missing file is an empty one. */
  read(): StoreResult<FileContent> {
    let text: string;
    try {
      const refused = this.refusal();
      if (refused) return { ok: false, error: refused };
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, value: { version: FORMAT, servers: {} } };
      return { ok: false, error: `Loupe cannot read its saved credentials in ${this.file} (${describe(error)}).` };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return { ok: false, error: `${this.file} is not valid JSON (${describe(error)}), so Loupe leaves it alone: fix or delete it to save credentials again.` };
    }
    const content = parsed as Partial<FileContent> | null;
    if (!content || content.version !== FORMAT || typeof content.servers !== 'object' || content.servers === null) {
      return { ok: false, error: `${this.file} is not a Loupe credentials file of format ${FORMAT}, so Loupe leaves it alone: delete it to save credentials again.` };
    }
    return { ok: true, value: content as FileContent };
  }

  /** Why the file must not be used (others may read it, or it is not ours); undefined when it is fine or missing. */
  private refusal(): string | undefined {
    if (!this.checkMode) return undefined;
    const stat = statSync(this.file);
    if (!stat.isFile()) return `${this.file} is not a regular file, so Loupe does not use it for credentials.`;
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) return `${this.file} belongs to another user (uid ${stat.uid}), so Loupe does not use it for credentials: delete it, or run Loupe as its owner.`;
    const mode = stat.mode & 0o777;
    if ((mode & 0o077) !== 0) {
      return `${this.file} can be read or changed by other users (mode ${mode.toString(8).padStart(4, '0')}), so Loupe does not use it: run \`chmod 600 ${this.file}\` if nobody else could have read it, else delete it and sign in again.`;
    }
    return undefined;
  }

  private update(change: (content: FileContent) => void): StoreResult<void> {
    const read = this.read();
    if (!read.ok) return read;
    change(read.value);
    try {
      this.writeAtomically(JSON.stringify(read.value, null, 2) + '\n');
      return { ok: true, value: undefined };
    } catch (error) {
      return { ok: false, error: `Loupe could not save credentials in ${this.file} (${describe(error)}).` };
    }
  }

  private writeAtomically(text: string): void {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    // 'wx': never follow or reuse an existing name; 0600 from the first byte (umask can only narrow it).
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      rmSync(temporary, { force: true });
      throw error;
    }
    closeSync(fd);
    try {
      renameSync(temporary, this.file);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }
}

/** The store for `serverUrl` in the default file, when the user turned persistence on; undefined otherwise. */
export function credentialStoreFor(serverUrl: string, remember: boolean, file?: CredentialFile): CredentialStore | undefined {
  return remember ? (file ?? new CredentialFile()).forServer(serverUrl) : undefined;
}
