/**
 * Reading a trace file (JSON Lines, jsonl.ts writes it): the header line and each event checked
 * with the wire's schemas; bad lines skipped and counted, a last line cut short left out.
 */
import { z } from 'zod';
import { TraceEventSchema, type TraceEvent } from '../wire/events.ts';
import { TRACE_FORMAT, TRACE_FORMAT_VERSION, type TraceHeader } from './jsonl.ts';

const HeaderSchema = z.looseObject({
  format: z.literal(TRACE_FORMAT),
  version: z.number(),
  exportedAt: z.string().optional(),
  session: z.looseObject({ id: z.string() }),
});

export interface ImportedTrace {
  header: TraceHeader;
  events: TraceEvent[];
  /** Lines that could not be read (line numbers from 1), at most 20 listed. */
  problems: { line: number; error: string }[];
  problemCount: number;
  /**
   * The line number of a last line cut short (a recording that stopped mid-write, issue 10): it is
   * left out and everything before it is used.
   */
  truncatedLine?: number;
}

function readHeader(line: string | undefined): { ok: true; header: TraceHeader } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = JSON.parse(line ?? '');
  } catch {
    return { ok: false, error: 'The first line is not JSON: this is not a Loupe trace (JSON Lines with a header line).' };
  }
  const parsed = HeaderSchema.safeParse(data);
  if (!parsed.success) return { ok: false, error: `The first line is not a Loupe trace header (expected "format": "${TRACE_FORMAT}").` };
  if (parsed.data.version > TRACE_FORMAT_VERSION) return { ok: false, error: `Trace format version ${parsed.data.version} is newer than this Loupe reads (${TRACE_FORMAT_VERSION}).` };
  return { ok: true, header: parsed.data as unknown as TraceHeader };
}

function readEvent(line: string): { ok: true; event: TraceEvent } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  if (data !== null && typeof data === 'object') delete (data as { meta?: unknown }).meta;
  const parsed = TraceEventSchema.safeParse(data);
  return parsed.success ? { ok: true, event: parsed.data } : { ok: false, error: parsed.error.issues[0]?.message ?? 'not a trace event' };
}

/** Read a JSONL trace. Bad event lines are skipped and counted; a bad header fails the whole file. */
export function parseTrace(text: string): { ok: true; trace: ImportedTrace } | { ok: false; error: string } {
  const lines = text.split(/\r?\n/);
  const first = lines.findIndex((l) => l.trim() !== '');
  const header = readHeader(lines[first]);
  if (!header.ok) return header;
  const events: TraceEvent[] = [];
  const problems: { line: number; error: string }[] = [];
  let problemCount = 0;
  let truncatedLine: number | undefined;
  // A file that does not end with a newline may have stopped mid-line.
  const last = text.endsWith('\n') ? -1 : lines.length - 1;
  for (let i = first + 1; i < lines.length; i += 1) {
    if (lines[i].trim() === '') continue;
    const read = readEvent(lines[i]);
    if (read.ok) events.push(read.event);
    else if (i === last && read.error === 'not JSON') truncatedLine = i + 1;
    else if (++problemCount <= 20) problems.push({ line: i + 1, error: read.error });
  }
  // The index needs trace order; a hand-edited file may not keep it.
  if (events.some((e, i) => i > 0 && e.seq <= events[i - 1].seq)) events.sort((a, b) => a.seq - b.seq);
  return { ok: true, trace: { header: header.header, events, problems, problemCount, ...(truncatedLine === undefined ? {} : { truncatedLine }) } };
}
