/**
 * What a registry entry claims against what the live server says of itself (`serverInfo` of its
 * `initialize` answer, or of `server/discover`) and the transport the session uses: one line per
 * field, "matches" or the two values. Nothing is judged beyond equality.
 */
import type { RegistryEntry } from './entry.ts';
import type { RegistryOption } from './launch.ts';

export interface LiveServer {
  serverInfo?: { name?: string; title?: string; version?: string; websiteUrl?: string; description?: string };
  /** The session's transport: stdio, http (Streamable HTTP) or sse. */
  transport?: 'stdio' | 'http' | 'sse';
}

export interface Comparison {
  field: string;
  entry?: string;
  live?: string;
  matches: boolean;
  /** The sentence to show. */
  text: string;
}

const said = (v: string | undefined): string => (v === undefined ? 'nothing' : `"${v}"`);

function line(field: string, entry: string | undefined, live: string | undefined): Comparison | undefined {
  if (entry === undefined && live === undefined) return undefined;
  const matches = entry === live;
  return { field, entry, live, matches, text: matches ? `${field}: matches (${said(entry)})` : `${field}: the entry says ${said(entry)}, the server says ${said(live)}` };
}

/** The transport an option declares, in the session's words. */
function declaredTransport(option: RegistryOption): 'stdio' | 'http' | 'sse' | undefined {
  const type = option.kind === 'package' ? option.pkg.transport.type : option.remote.type;
  return type === 'stdio' ? 'stdio' : type === 'streamable-http' ? 'http' : type === 'sse' ? 'sse' : undefined;
}

export function compareEntry(entry: RegistryEntry, option: RegistryOption, live: LiveServer): Comparison[] {
  const info = live.serverInfo ?? {};
  const rows = [
    line('name', entry.name, info.name),
    line('title', entry.title, info.title),
    line('version', entry.version, info.version),
    line('description', entry.description, info.description),
    line('websiteUrl', entry.websiteUrl, info.websiteUrl),
    line('transport', declaredTransport(option), live.transport),
  ];
  return rows.filter((r): r is Comparison => r !== undefined);
}
