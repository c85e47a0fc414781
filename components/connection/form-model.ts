/** The connection form's fields ⇄ a ServerConfig (pure, so it can be tested without a DOM). */
import { formatEnvLines, formatHeaderLines, joinArgs, parseEnvLines, parseHeaderLines, splitArgs } from '../../lib/config/command-line.ts';
import { normalizeTarget } from '../../lib/config/server-config.ts';
import { DEFAULT_PROTOCOL, ServerConfigSchema, type ProtocolChoice, type ServerConfig } from '../../lib/model/server-config.ts';

/** The <select>'s values; `http` means Streamable HTTP with SSE fallback (`transport: 'auto'`). */
export type TransportChoice = 'stdio' | 'http' | 'sse';

export interface ConnectionFields {
  transport: TransportChoice;
  command: string;
  args: string;
  env: string;
  cwd: string;
  url: string;
  headers: string;
  /** Which protocol generation to speak (issue 12). */
  protocol: ProtocolChoice;
}

export const EMPTY_FIELDS: ConnectionFields = { transport: 'stdio', command: '', args: '', env: '', cwd: '', url: '', headers: '', protocol: DEFAULT_PROTOCOL };

/** The Protocol combobox: the words the user sees for each choice (docs/contract.md), in this order. */
export const PROTOCOL_OPTIONS: readonly { value: ProtocolChoice; label: string; hint: string }[] = [
  { value: '2025-11-25', label: '2025-11-25 (sessions)', hint: 'The initialize handshake and a session: what most servers speak today.' },
  { value: '2026-07-28', label: '2026-07-28 (stateless)', hint: 'No initialize and no session: the version, client info and capabilities go in every request.' },
  { value: 'auto', label: 'Auto', hint: 'Auto asks the server with server/discover first and shows what it concluded and why.' },
];

export function fieldsFromConfig(config: ServerConfig | undefined): ConnectionFields {
  if (!config) return EMPTY_FIELDS;
  const protocol = config.protocol ?? DEFAULT_PROTOCOL;
  if (config.kind === 'stdio') {
    return { ...EMPTY_FIELDS, protocol, transport: 'stdio', command: config.command, args: joinArgs(config.args), env: formatEnvLines(config.env), cwd: config.cwd ?? '' };
  }
  return { ...EMPTY_FIELDS, protocol, transport: config.transport === 'sse' ? 'sse' : 'http', url: config.url, headers: formatHeaderLines(config.headers) };
}

export type FieldsResult = { ok: true; config: ServerConfig } | { ok: false; error: string };

/** The CLI's normaliser (lib/config/server-config.ts), so a form and a command line give the same config. */
function normalized(input: Parameters<typeof normalizeTarget>[0]): FieldsResult {
  const built = normalizeTarget(input);
  return built.ok ? { ok: true, config: built.value } : built;
}

function stdioConfig(fields: ConnectionFields): FieldsResult {
  if (fields.command.trim() === '') return { ok: false, error: 'Enter a command to start the server' };
  const args = splitArgs(fields.args);
  if (!args.ok) return { ok: false, error: `Arguments: ${args.error}` };
  const env = parseEnvLines(fields.env);
  if (!env.ok) return env;
  const cwd = fields.cwd.trim();
  return normalized({ target: [fields.command.trim(), ...args.args], transport: 'stdio', env: env.record, cwd: cwd || undefined });
}

function httpConfig(fields: ConnectionFields): FieldsResult {
  const url = fields.url.trim();
  if (!/^https?:\/\//i.test(url)) return { ok: false, error: 'Enter an http:// or https:// URL' };
  const headers = parseHeaderLines(fields.headers);
  if (!headers.ok) return headers;
  return normalized({ target: [url], transport: fields.transport === 'sse' ? 'sse' : undefined, headers: headers.record });
}

function sameTarget(a: ServerConfig, b: ServerConfig): boolean {
  if (a.kind === 'stdio' && b.kind === 'stdio') return a.command === b.command;
  return a.kind === 'http' && b.kind === 'http' && a.url === b.url;
}

/**
 * `protocol` goes in the config only when it is not the default, so that configs (and the
 * workspace file) written before issue 12 stay as they were; one that said the default out loud
 * keeps saying it.
 */
function protocolOf(fields: ConnectionFields, previous?: ServerConfig): { protocol?: ProtocolChoice } {
  if (fields.protocol !== DEFAULT_PROTOCOL) return { protocol: fields.protocol };
  return previous?.protocol === DEFAULT_PROTOCOL ? { protocol: DEFAULT_PROTOCOL } : {};
}

/** Build and validate the config the form describes; the previous display name stays while the target does. */
export function configFromFields(fields: ConnectionFields, previous?: ServerConfig): FieldsResult {
  const built = fields.transport === 'stdio' ? stdioConfig(fields) : httpConfig(fields);
  if (!built.ok) return built;
  const name = previous?.name !== undefined && sameTarget(previous, built.config) ? previous.name : undefined;
  const config = { ...built.config, ...protocolOf(fields, previous) };
  const parsed = ServerConfigSchema.safeParse(name ? { ...config, name } : config);
  return parsed.success ? { ok: true, config: parsed.data } : { ok: false, error: parsed.error.issues.map((i) => i.message).join('; ') };
}

export type TimeoutResult = { ok: true; ms?: number } | { ok: false; error: string };

/**
 * The Connect timeout field (seconds, as typed) → milliseconds for the connect message; empty
 * keeps the session's current value (30 s, or `--connect-timeout`). Bounds match the wire's.
 */
export function connectTimeoutFromText(text: string): TimeoutResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true };
  const seconds = Number(trimmed);
  if (!Number.isFinite(seconds) || seconds < 0.1 || seconds > 3600) {
    return { ok: false, error: 'The connect timeout must be a number of seconds from 0.1 to 3600' };
  }
  return { ok: true, ms: Math.round(seconds * 1000) };
}

/** Milliseconds → the field's text (seconds), for the prefill. */
export function connectTimeoutText(ms: number | undefined): string {
  return ms === undefined ? '' : String(ms / 1000);
}
