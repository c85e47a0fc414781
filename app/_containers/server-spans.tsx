'use client';
/**
 * The server's spans for the History's selected row (issue 28): those the server exported to
 * Loupe's receiver under the call's traceparent (joined to its request frame), or those of a
 * selected `spans` row (an import, a batch joined to nothing). Nothing is drawn when there are none.
 */
import { useMemo, type ReactNode } from 'react';
import { SpanWaterfall } from '@/components/history/span-waterfall.tsx';
import { Panel } from '@/components/ui/ui.tsx';
import { spansFor, waterfall } from '../../lib/otel/waterfall.ts';
import type { HistoryRow } from '../../lib/trace/trace.ts';
import type { TraceEvent } from '../../lib/wire/wire.ts';

export function ServerSpans({ rows, selected, version }: { rows: readonly HistoryRow[]; selected?: HistoryRow; version: number }): ReactNode {
  const laidOut = useMemo(() => {
    if (!selected) return [];
    const seqs = [selected.seq, ...(selected.partnerSeq !== undefined ? [selected.partnerSeq] : [])];
    // One plain pass over the rows (a flood's 100,000 of them cost a field read each).
    const events: TraceEvent[] = [];
    for (const row of rows) if (row.event.kind === 'spans') events.push(row.event);
    const spans = spansFor(events, seqs);
    const request = selected.kind === 'request' ? selected : selected.partner?.kind === 'request' ? selected.partner : undefined;
    return waterfall(spans, request?.ts);
    // `version` bumps as rows arrive: spans come after the answer they belong to.
  }, [rows, selected, version]);
  if (laidOut.length === 0) return null;
  const title = selected?.event.kind === 'spans' ? `Spans (${laidOut.length})` : `Server spans (${laidOut.length})`;
  return (
    <Panel title={title} label="Server spans" className="min-w-0">
      <SpanWaterfall rows={laidOut} label={`Spans of #${selected?.seq}`} />
    </Panel>
  );
}
