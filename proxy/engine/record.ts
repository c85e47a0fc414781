/**
 * `--record FILE` (issue 10): a session's trace written as the JSONL trace format (lib/trace/jsonl.ts)
 * while it runs, in the UI mode and every headless mode. Each tick's events are written with one
 * synchronous write as soon as the tick ends, so a crash of Loupe loses at most the events of the
 * tick it died in, and a file cut short mid-line still reads (parseTrace reports that line).
 *
 * Secrets stay out: the recorder masks every event at the source (lib/trace/secret-mask.ts); env values
 * and header values marked secret (or that may be credentials) are masked in the header's config
 * and replaced wherever they occur in the events, as an export with the default choice does. The
 * file is the user's alone (0600), like Loupe's state file: a trace is a server's whole conversation.
 */
import { closeSync, fchmodSync, fstatSync, openSync, writeSync } from 'node:fs';
import { defaultSecretChoice, eventLine, redactionValues, traceHeader, type SecretChoice } from '../../lib/trace/jsonl.ts';
import type { SessionInfo, TraceEvent } from '../../lib/wire/wire.ts';
import { VERSION } from '../version.ts';
import type { TraceRecorder } from '../pipeline/trace-recorder.ts';

/** Read and written by the user who runs Loupe only. */
export const RECORDING_MODE = 0o600;

export interface Recording {
  path: string;
  /** Writes what is queued and closes the file. */
  close(): void;
}

/**
 * Starts writing `trace` to `path` (created or truncated). `session` is what the header says of the
 * session; `secretNames` are the env/header names marked secret besides those that look secret.
 * Throws (with the system's message) when the file cannot be opened: the caller says so and exits.
 */
export function startRecording(path: string, trace: TraceRecorder, session: SessionInfo, secretNames: { env?: readonly string[]; headers?: readonly string[] } = {}): Recording {
  const fd = openSync(path, 'w', RECORDING_MODE);
  // An existing file keeps its mode when truncated: set it (a device such as /dev/stdout is left as it is).
  try {
    if (fstatSync(fd).isFile()) fchmodSync(fd, RECORDING_MODE);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const base = defaultSecretChoice(session.config);
  const secrets: SecretChoice = {
    env: [...new Set([...base.env, ...(secretNames.env ?? [])])],
    headers: [...new Set([...base.headers, ...(secretNames.headers ?? [])])],
    redactInEvents: true,
  };
  const fixed = redactionValues(session, secrets);
  // The session's own secret values may be set after the recording starts (when it connects).
  const values = () => (trace.secretValues.length === 0 ? fixed : [...new Set([...fixed, ...trace.secretValues])]);
  writeSync(fd, `${JSON.stringify(traceHeader({ session, secrets, exportedBy: `mcp-loupe ${VERSION} --record` }, { kept: 0, dropped: 0, exported: 0 }))}\n`);
  let queued: string[] = [];
  let scheduled = false;
  let closed = false;
  const flush = () => {
    scheduled = false;
    if (queued.length === 0 || closed) return;
    const text = queued.join('');
    queued = [];
    try {
      writeSync(fd, text);
    } catch {
      // A full disk or a removed file must not take the session down; the recording just stops growing.
    }
  };
  // Events already kept (the recorder may have started before the file was asked for) come first.
  for (const event of trace.all()) queued.push(`${eventLine(event, values())}\n`);
  const unsubscribe = trace.subscribe((event: TraceEvent) => {
    queued.push(`${eventLine(event, values())}\n`);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
  flush();
  return {
    path,
    close: () => {
      if (closed) return;
      unsubscribe();
      flush();
      closed = true;
      closeSync(fd);
    },
  };
}

/** `trace.jsonl` → `trace.<name>.jsonl` for one server of several (the name made safe for a file name). */
export function recordingPath(path: string, name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'server';
  return /\.jsonl$/i.test(path) ? path.replace(/\.jsonl$/i, `.${safe}.jsonl`) : `${path}.${safe}.jsonl`;
}
