'use client';
/** The History tab: every frame in order, the selected one in full, and the server's stderr. */
import { useMemo, useState, type ReactNode } from 'react';
import { FrameDetail } from '@/components/frame-detail.tsx';
import { HistoryTable } from '@/components/history-table.tsx';
import { StderrPanel } from '@/components/stderr-panel.tsx';
import { inputClass, Note, Panel } from '@/components/ui.tsx';
import { historyRows, stderrText, type HistoryRow } from '../lib/trace.ts';
import { currentEvents } from './loupe-state.ts';
import { useLoupeSelector } from './use-loupe.ts';

/** Rows rendered at most (virtualisation comes later); older ones are counted, not drawn. */
export const ROW_CAP = 2_000;
const STDERR_CAP = 64 * 1024;

function matches(row: HistoryRow, needle: string): boolean {
  if (needle === '') return true;
  return [row.method, row.summary, row.kind, row.id === undefined ? undefined : String(row.id)].some((s) => s?.toLowerCase().includes(needle));
}

export function HistoryContainer(): ReactNode {
  const events = useLoupeSelector(currentEvents);
  const dropped = useLoupeSelector((s) => (s.current === undefined ? 0 : (s.stats[s.current]?.dropped ?? 0) + (s.localDropped[s.current] ?? 0)));
  const [filter, setFilter] = useState('');
  const [selectedSeq, setSelectedSeq] = useState<number>();
  const rows = useMemo(() => historyRows(events), [events]);
  const stderr = useMemo(() => stderrText(events, STDERR_CAP), [events]);
  const needle = filter.trim().toLowerCase();
  const filtered = useMemo(() => rows.filter((row) => matches(row, needle)), [rows, needle]);
  const shown = filtered.length > ROW_CAP ? filtered.slice(filtered.length - ROW_CAP) : filtered;
  const selected = selectedSeq === undefined ? undefined : rows.find((r) => r.seq === selectedSeq);
  return (
    <div className="space-y-3">
      <section aria-label="History" className="grid gap-3 2xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0 space-y-2">
          <div className="flex items-center gap-2">
            <input type="search" aria-label="Filter history" placeholder="Filter by method, kind or id" className={inputClass} value={filter} onChange={(e) => setFilter(e.target.value)} />
            <span className="shrink-0 text-xs text-zinc-500 dark:text-zinc-400">{filtered.length === rows.length ? `${rows.length} rows` : `${filtered.length} of ${rows.length} rows`}</span>
          </div>
          {dropped > 0 && <Note tone="warn">{dropped} older events were dropped by the trace buffer.</Note>}
          {rows.length === 0 ? <Note>No traffic yet.</Note> : (
            <HistoryTable rows={shown} hidden={filtered.length - shown.length} selectedSeq={selectedSeq} onSelect={setSelectedSeq} />
          )}
        </div>
        <Panel title="Frame" className="min-w-0 self-start">
          <FrameDetail row={selected} onSelect={setSelectedSeq} />
        </Panel>
      </section>
      <StderrPanel text={stderr.text} trimmed={stderr.trimmed} />
    </div>
  );
}
