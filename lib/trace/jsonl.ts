/**
 * Traces as JSON Lines (README.md, "Trace files"): a first line describing the session, then one
 * trace event per line, exactly as on the wire (lib/wire/wire.ts TraceEventSchema) plus a `meta`
 * object with what Loupe derived (pairing, latency, violations). Readers may ignore `meta`; Loupe
 * recomputes it on import, so an imported trace looks the same as the live one did.
 *
 * Secrets: the proxy masks every event at the source (lib/trace/secret-mask.ts); the session's config
 * has the env values and header values the user marked secret replaced by a mask, and (optionally)
 * those values are also replaced wherever they appear in the events, by the same rule.
 *
 * Writing only: reading a trace (read-trace.ts) checks each line with the trace events' zod
 * schemas, which a Loupe that records does not need to build (issue 23).
 */
import { mayCarryCredential, maskTraceEvent, MIN_SECRET_CHARS, scrubberFor } from './secret-mask.ts';
import type { ServerConfig } from '../model/server-config.ts';
import type { HistoryRow } from './trace.ts';
import type { SessionInfo } from '../wire/base.ts';
import type { TraceEvent, TraceStats } from '../wire/events.ts';

export const TRACE_FORMAT = 'mcp-loupe-trace';
export const TRACE_FORMAT_VERSION = 1;

/** Names that usually hold secrets: pre-marked in the export form. */
const SECRET_NAME = /key|token|secret|passw|pwd|auth|credential|cookie|session|private|signature/i;

export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

const MASKED = /^•••• \(\d+ chars, masked\)$/;

/** The mask of a secret value (its length only). A value masked already stays as it is. */
export function mask(value: string): string {
  return MASKED.test(value) ? value : `•••• (${value.length} chars, masked)`;
}

/** What the user chose to hide. */
export interface SecretChoice {
  /** Env variable names of a stdio config whose values are masked. */
  env: readonly string[];
  /** Header names of an HTTP config whose values are masked (case-insensitive). */
  headers: readonly string[];
  /** Also replace those values wherever they occur in the events' text. */
  redactInEvents: boolean;
}

/**
 * The names a config could hide, each with whether it looks secret. Every header of a remote server
 * does but the plain protocol ones (`Accept`, `Content-Type`, …): a header given for a server is
 * there to say who is asking more often than not.
 */
export function secretCandidates(config: ServerConfig): { env: { name: string; suggested: boolean }[]; headers: { name: string; suggested: boolean }[] } {
  const names = (record: Record<string, string>, suggest: (name: string) => boolean) => Object.keys(record).map((name) => ({ name, suggested: suggest(name) }));
  return config.kind === 'stdio' ? { env: names(config.env, looksSecret), headers: [] } : { env: [], headers: names(config.headers, mayCarryCredential) };
}

export function defaultSecretChoice(config: ServerConfig): SecretChoice {
  const found = secretCandidates(config);
  return { env: found.env.filter((e) => e.suggested).map((e) => e.name), headers: found.headers.filter((h) => h.suggested).map((h) => h.name), redactInEvents: true };
}

function maskRecord(record: Record<string, string>, marked: readonly string[], ignoreCase: boolean): Record<string, string> {
  const set = new Set(marked.map((n) => (ignoreCase ? n.toLowerCase() : n)));
  return Object.fromEntries(Object.entries(record).map(([name, value]) => [name, set.has(ignoreCase ? name.toLowerCase() : name) ? mask(value) : value]));
}

export function maskConfig(config: ServerConfig, secrets: SecretChoice): ServerConfig {
  return config.kind === 'stdio' ? { ...config, env: maskRecord(config.env, secrets.env, false) } : { ...config, headers: maskRecord(config.headers, secrets.headers, true) };
}

/** The secret values themselves (only those long enough to be worth replacing in text). */
export function secretValues(config: ServerConfig, secrets: SecretChoice): string[] {
  const pick = (record: Record<string, string>, marked: readonly string[], ignoreCase: boolean) => {
    const set = new Set(marked.map((n) => (ignoreCase ? n.toLowerCase() : n)));
    return Object.entries(record).filter(([name]) => set.has(ignoreCase ? name.toLowerCase() : name)).map(([, value]) => value);
  };
  const values = config.kind === 'stdio' ? pick(config.env, secrets.env, false) : pick(config.headers, secrets.headers, true);
  return [...new Set(values.filter((v) => v.length >= MIN_SECRET_CHARS && !MASKED.test(v)))].sort((a, b) => b.length - a.length);
}

function redact(text: string, values: readonly string[]): string {
  return scrubberFor(values, 'masked')(text);
}

/** The event by the one rule (lib/trace/secret-mask.ts): secret headers by name, the values wherever they appear. */
function redactEvent(event: TraceEvent, values: readonly string[]): TraceEvent {
  return maskTraceEvent(event, scrubberFor(values, 'masked'));
}

export interface TraceHeader {
  format: typeof TRACE_FORMAT;
  version: number;
  exportedAt: string;
  exportedBy: string;
  session: Omit<SessionInfo, 'error'> & { error?: SessionInfo['error'] };
  /** Names whose values are masked in `session.config` (and, when `redactedInEvents`, in the events). */
  secrets: { env: string[]; headers: string[]; redactedInEvents: boolean };
  /** Set when only the rows a filter let through were exported. */
  filter?: unknown;
  stats: { kept: number; dropped: number; exported: number };
}

export interface ExportInput {
  session: SessionInfo;
  stats?: TraceStats;
  /** The rows to export, in order (their events are written; `meta` comes from the row). */
  rows: readonly HistoryRow[];
  /** Events that belong to a row without being one (its spec events: TraceIndex.specEvents), written in seq order too. */
  attached?: (row: HistoryRow) => readonly TraceEvent[];
  secrets: SecretChoice;
  filter?: unknown;
  exportedBy: string;
  now?: Date;
}

/** What Loupe derived for a row; violation messages can quote the frame (a spec event's issues), so they are redacted too. */
function metaOf(row: HistoryRow, values: readonly string[]): Record<string, unknown> | undefined {
  const meta: Record<string, unknown> = {};
  if (row.event.kind === 'frame' && row.method !== undefined && row.event.method === undefined) meta.method = row.method;
  if (row.partnerSeq !== undefined) meta.partnerSeq = row.partnerSeq;
  if (row.latencyMs !== undefined && row.event.kind === 'frame') meta.latencyMs = row.latencyMs;
  if (row.pending) meta.pending = true;
  if (row.cancelled) meta.cancelled = true;
  if (row.unmatched) meta.unmatched = true;
  if (row.violations) meta.violations = values.length === 0 ? row.violations : row.violations.map((v) => ({ ...v, message: redact(v.message, values) }));
  return Object.keys(meta).length > 0 ? meta : undefined;
}

/** The header line's object: the session (secrets masked, no pid) and what was hidden. */
export function traceHeader(input: Pick<ExportInput, 'session' | 'secrets' | 'filter' | 'exportedBy' | 'now'>, stats: TraceHeader['stats']): TraceHeader {
  const { session, secrets } = input;
  return {
    format: TRACE_FORMAT,
    version: TRACE_FORMAT_VERSION,
    exportedAt: (input.now ?? new Date()).toISOString(),
    exportedBy: input.exportedBy,
    session: { ...session, config: maskConfig(session.config, secrets), pid: undefined },
    secrets: { env: [...secrets.env], headers: [...secrets.headers], redactedInEvents: secrets.redactInEvents },
    ...(input.filter === undefined ? {} : { filter: input.filter }),
    stats,
  };
}

/** One event's line (no newline), secret values replaced when `values` lists them. */
export function eventLine(event: TraceEvent, values: readonly string[], meta?: Record<string, unknown>): string {
  const redacted = redactEvent(event, values);
  return JSON.stringify(meta ? { ...redacted, meta } : redacted);
}

/** The values `eventLine` must replace for this session and choice. */
export function redactionValues(session: SessionInfo, secrets: SecretChoice): string[] {
  return secrets.redactInEvents ? secretValues(session.config, secrets) : [];
}

/** The whole file: header line, then one line per row's event. Ends with a newline. */
export function exportTrace(input: ExportInput): string {
  const { session, rows, secrets } = input;
  const values = redactionValues(session, secrets);
  const extra = input.attached ? rows.flatMap((row) => input.attached?.(row) ?? []).sort((a, b) => a.seq - b.seq) : [];
  const header = traceHeader(input, { kept: input.stats?.kept ?? rows.length, dropped: input.stats?.dropped ?? 0, exported: rows.length + extra.length });
  const lines = [JSON.stringify(header)];
  let next = 0;
  for (const row of rows) {
    while (next < extra.length && extra[next].seq < row.seq) lines.push(eventLine(extra[next++], values));
    lines.push(eventLine(row.event, values, metaOf(row, values)));
  }
  while (next < extra.length) lines.push(eventLine(extra[next++], values));
  return lines.join('\n') + '\n';
}
