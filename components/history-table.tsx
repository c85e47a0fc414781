/** The raw trace: one row per frame (and per noise/exit/http/transport event), newest at the bottom. */
import type { ReactNode } from 'react';
import { formatDuration, formatSize, type HistoryRow } from '../lib/trace.ts';
import { Text } from './text.tsx';
import { useFollowTail } from './use-follow-tail.ts';

export interface HistoryTableProps {
  rows: readonly HistoryRow[];
  /** Rows left out before the first shown one (render cap, filter aside). */
  hidden: number;
  selectedSeq?: number;
  onSelect(seq: number): void;
}

const KIND_COLORS: Record<string, string> = {
  request: 'text-sky-700 dark:text-sky-300',
  response: 'text-emerald-700 dark:text-emerald-300',
  error: 'text-red-700 dark:text-red-300',
  notification: 'text-violet-700 dark:text-violet-300',
  invalid: 'text-amber-700 dark:text-amber-300',
  'stdout noise': 'text-amber-700 dark:text-amber-300',
};

function time(ts: number): string {
  const d = new Date(ts);
  return `${d.toTimeString().slice(0, 8)}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

function Latency({ row }: { row: HistoryRow }): ReactNode {
  if (row.latencyMs !== undefined) return formatDuration(row.latencyMs);
  if (row.pending) return <span className="text-zinc-400">pending</span>;
  if (row.unmatched) return <span className="text-amber-600 dark:text-amber-400" title="No matching request">unmatched</span>;
  return null;
}

function Row({ row, selected, onSelect }: { row: HistoryRow; selected: boolean; onSelect(): void }): ReactNode {
  const dir = row.dir === 'out' ? '→ out' : row.dir === 'in' ? '← in' : '';
  return (
    <tr
      aria-current={selected ? true : undefined}
      onClick={onSelect}
      className={`cursor-pointer border-b border-zinc-100 align-top hover:bg-zinc-50 dark:border-zinc-800 dark:hover:bg-zinc-800/60 ${selected ? 'bg-sky-50 dark:bg-sky-950/60' : ''}`}
    >
      <td className="px-2 py-1 text-right tabular-nums text-zinc-500">
        <button type="button" onClick={(e) => { e.stopPropagation(); onSelect(); }} className="hover:underline" aria-label={`Show frame ${row.seq}`}>{row.seq}</button>
      </td>
      <td className="px-2 py-1 tabular-nums text-zinc-500">{time(row.ts)}</td>
      <td className="whitespace-nowrap px-2 py-1">{dir}</td>
      <td className={`whitespace-nowrap px-2 py-1 ${KIND_COLORS[row.kind] ?? 'text-zinc-600 dark:text-zinc-300'}`}>{row.kind}</td>
      <td className="max-w-[22rem] truncate px-2 py-1 font-medium">
        {row.method !== undefined ? <Text>{row.method}</Text> : <Text className="font-normal text-zinc-600 dark:text-zinc-300">{row.summary}</Text>}
      </td>
      <td className="max-w-[8rem] truncate px-2 py-1 text-zinc-500">{row.id === undefined ? '' : <Text>{JSON.stringify(row.id)}</Text>}</td>
      <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums text-zinc-500">{row.size === undefined ? '' : formatSize(row.size)}</td>
      <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums"><Latency row={row} /></td>
    </tr>
  );
}

export function HistoryTable({ rows, hidden, selectedSeq, onSelect }: HistoryTableProps): ReactNode {
  const follow = useFollowTail(rows.length);
  return (
    <div ref={follow.ref} onScroll={follow.onScroll} className="max-h-[60vh] overflow-auto rounded-md border border-zinc-200 dark:border-zinc-700">
      {hidden > 0 && <p className="border-b border-zinc-200 bg-zinc-50 px-2 py-1 text-xs text-zinc-600 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">{hidden} earlier rows hidden</p>}
      <table className="w-full border-collapse font-mono text-xs">
        <thead className="sticky top-0 bg-zinc-100 text-left text-[11px] uppercase tracking-wide text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400">
          <tr>
            <th className="px-2 py-1 text-right">#</th>
            <th className="px-2 py-1">Time</th>
            <th className="px-2 py-1">Dir</th>
            <th className="px-2 py-1">Kind</th>
            <th className="px-2 py-1">Method</th>
            <th className="px-2 py-1">Id</th>
            <th className="px-2 py-1 text-right">Size</th>
            <th className="px-2 py-1 text-right">Latency</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <Row key={`${row.event.session}:${row.seq}`} row={row} selected={row.seq === selectedSeq} onSelect={() => onSelect(row.seq)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
