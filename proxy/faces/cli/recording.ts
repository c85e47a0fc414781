/**
 * A recording (JSONL trace) read for `--verify` and `--mock`: a bad file is explained in one sentence
 * and exits 2; a file cut short mid-write, or with bad lines, is used up to what can be read, and says so.
 */
import { readFileSync } from 'node:fs';
import { EXIT } from './io.ts';

export type ImportedTrace = Extract<ReturnType<typeof import('../../../lib/trace/read-trace.ts').parseTrace>, { ok: true }>['trace'];

/** A recording, read or explained (exit 2): which line is bad, and that the complete lines are used. */
export function readTrace(path: string, say: (line: string) => void): ImportedTrace | number {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    say(`cannot read the recording ${path}: ${(error as Error).message}`);
    return EXIT.usage;
  }
  const parsed = parseTraceText(text);
  if (!parsed.ok) {
    say(`${path}: ${parsed.error}`);
    return EXIT.usage;
  }
  const { trace } = parsed;
  if (trace.truncatedLine !== undefined) say(`${path}: line ${trace.truncatedLine} is cut short (the recording stopped mid-write); using the ${trace.events.length} complete events before it.`);
  for (const problem of trace.problems) say(`${path}: line ${problem.line} is not a trace event (${problem.error}); skipped.`);
  if (trace.problemCount > trace.problems.length) say(`${path}: ${trace.problemCount - trace.problems.length} more bad lines skipped.`);
  return trace;
}

let parseTraceText: typeof import('../../../lib/trace/read-trace.ts').parseTrace;

/** Loads the trace reader (zod) only for the modes that read a recording; readTrace needs it loaded. */
export async function loadTraceReader(): Promise<void> {
  parseTraceText ??= (await import('../../../lib/trace/read-trace.ts')).parseTrace;
}
