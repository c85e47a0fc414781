/**
 * `--verbose`: the protocol trace on stderr, one line per event, the frames exactly as sent; with
 * `--filter QUERY` (issue 26), only the rows the History's query language lets through
 * (lib/trace/query.ts, the page's parser). Each frame is judged as it passes: a request is still
 * `status:pending` then, and its answer carries the duration.
 */
import { compileQuery, parseQuery } from '../../../lib/trace/query.ts';
import { TraceIndex } from '../../../lib/trace/row-index.ts';
import type { TraceEvent } from '../../../lib/wire/wire.ts';

/** One event as --verbose prints it. */
export function verboseLine(event: TraceEvent): string {
  switch (event.kind) {
    case 'frame':
      return `${event.dir === 'out' ? '→' : '←'} ${event.raw}\n`;
    case 'stderr':
      // Each line prefixed; no prefix after the last newline (it used to start the next line with `stderr| `).
      return `${event.text.replace(/\n$/, '').replace(/^/gm, 'stderr| ')}\n`;
    case 'noise':
      return `noise| ${event.text}\n`;
    case 'http':
      return `http| ${event.method} ${event.url} → ${event.status ?? event.error ?? ''}\n`;
    case 'transport':
      return `· ${event.message}\n`;
    case 'auth':
      return `auth| ${event.step} ${event.status}: ${event.message}\n`;
    case 'spec':
      return `spec| #${event.of} breaks the ${event.version} schema (${event.schema}): ${event.issues.join('; ')}\n`;
    default:
      return `· ${event.kind}\n`;
  }
}

/** What to print of each event: every one, or (with a query) the rows it lets through. */
export function verbosePrinter(query: string | undefined, server: string | undefined, write: (text: string) => void): (event: TraceEvent) => void {
  const test = query === undefined ? undefined : compileQuery(parseQuery(query), { serverOf: () => server });
  if (query === undefined) return (event) => write(verboseLine(event));
  const index = new TraceIndex();
  return (event) => {
    for (const row of index.append([event]).added) if (!test || test(row)) write(verboseLine(row.event));
  };
}
