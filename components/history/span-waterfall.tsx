/**
 * A server's work inside one call (issue 28): the spans it exported to Loupe, as a table a screen
 * reader reads row by row (name, service, start offset, duration, status) with each span's bar
 * drawn beside it for the eye. Every name and attribute is the server's text, rendered as text.
 */
import { useState, type ReactNode } from 'react';
import type { WaterfallRow } from '../../lib/otel/waterfall.ts';
import { formatDuration } from '../../lib/trace/trace.ts';

const cell = 'px-1.5 py-0.5 align-top';

function Bar({ row }: { row: WaterfallRow }): ReactNode {
  const color = row.span.status.code === 'error' ? 'bg-red-500 dark:bg-red-400' : row.span.kind === 'server' ? 'bg-sky-600 dark:bg-sky-400' : 'bg-emerald-600 dark:bg-emerald-400';
  return (
    <div className="relative h-3 min-w-24 rounded-sm bg-zinc-100 dark:bg-zinc-800" aria-hidden="true">
      <div className={`absolute top-0 h-3 rounded-sm ${color}`} style={{ left: `${row.left}%`, width: `${Math.min(row.width, 100 - row.left)}%` }} />
    </div>
  );
}

function Attributes({ row }: { row: WaterfallRow }): ReactNode {
  const entries = [...Object.entries(row.span.attributes), ...(row.span.status.message ? [['status message', row.span.status.message] as const] : [])];
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs text-zinc-700 dark:text-zinc-300">
      {entries.map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="font-mono text-zinc-500 dark:text-zinc-400">{key}</dt>
          <dd className="break-all font-mono">{Array.isArray(value) ? value.join(', ') : String(value)}</dd>
        </div>
      ))}
      {row.span.events.map((event, i) => (
        <div key={`e${i}`} className="contents">
          <dt className="font-mono text-zinc-500 dark:text-zinc-400">event</dt>
          <dd className="font-mono">{event.name}</dd>
        </div>
      ))}
    </dl>
  );
}

function SpanRow({ row, open, onToggle }: { row: WaterfallRow; open: boolean; onToggle(): void }): ReactNode {
  const { span } = row;
  const service = span.resource?.['service.name'];
  return (
    <>
      <tr className="border-t border-zinc-100 dark:border-zinc-800">
        <th scope="row" className={`${cell} text-left font-normal`}>
          <button type="button" aria-expanded={open} onClick={onToggle} className="max-w-full truncate text-left text-zinc-900 hover:underline dark:text-zinc-100" style={{ paddingLeft: `${row.depth * 0.75}rem` }} aria-label={`Span ${span.name}: attributes`}>
            {span.name || '(unnamed)'}
          </button>
        </th>
        <td className={`${cell} text-zinc-600 dark:text-zinc-400`}>{typeof service === 'string' ? service : ''}</td>
        <td className={`${cell} whitespace-nowrap text-right tabular-nums`}>+{formatDuration(row.offsetMs)}</td>
        <td className={`${cell} whitespace-nowrap text-right tabular-nums`}>{formatDuration(row.durationMs)}</td>
        <td className={`${cell} ${span.status.code === 'error' ? 'text-red-700 dark:text-red-300' : 'text-zinc-600 dark:text-zinc-400'}`}>{span.status.code === 'error' ? 'error' : span.status.code === 'ok' ? 'ok' : ''}</td>
        <td className={`${cell} w-1/3`}><Bar row={row} /></td>
      </tr>
      {open && (
        <tr>
          <td colSpan={6} className="px-2 pb-2"><Attributes row={row} /></td>
        </tr>
      )}
    </>
  );
}

export function SpanWaterfall({ rows, label }: { rows: readonly WaterfallRow[]; label: string }): ReactNode {
  const [open, setOpen] = useState<string | undefined>(undefined);
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-xs" aria-label={label}>
        <thead className="text-left text-zinc-500 dark:text-zinc-400">
          <tr>
            <th scope="col" className={cell}>Span</th>
            <th scope="col" className={cell}>Service</th>
            <th scope="col" className={`${cell} text-right`}>Start</th>
            <th scope="col" className={`${cell} text-right`}>Duration</th>
            <th scope="col" className={cell}>Status</th>
            <th scope="col" className={cell}><span className="sr-only">Timeline</span></th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const key = `${row.span.traceId}/${row.span.spanId}`;
            return <SpanRow key={key} row={row} open={open === key} onToggle={() => setOpen(open === key ? undefined : key)} />;
          })}
        </tbody>
      </table>
    </div>
  );
}
