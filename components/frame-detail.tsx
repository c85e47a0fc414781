/** The selected history row in full: pretty-printed JSON (raw text when it does not parse). */
import type { ReactNode } from 'react';
import { formatDuration, prettyRaw, type HistoryRow } from '../lib/trace.ts';
import { Pre, Text } from './text.tsx';
import { Badge, buttonClass, Note } from './ui.tsx';

export interface FrameDetailProps {
  row?: HistoryRow;
  onSelect(seq: number): void;
}

function body(row: HistoryRow): { text: string; note?: string } {
  const event = row.event;
  switch (event.kind) {
    case 'frame': {
      const pretty = prettyRaw(event.raw);
      return pretty.json ? { text: pretty.text } : { text: pretty.text, note: 'Not valid JSON; shown as received' };
    }
    case 'noise':
    case 'stderr':
      return { text: event.text };
    default: {
      const { session: _s, seq: _q, ts: _t, kind: _k, ...rest } = event;
      return { text: JSON.stringify(rest, null, 2) };
    }
  }
}

export function FrameDetail({ row, onSelect }: FrameDetailProps): ReactNode {
  if (!row) return <Note>Select a row to see the frame.</Note>;
  const { text, note } = body(row);
  return (
    <div>
      <div className="mb-2 flex flex-wrap items-center gap-2 text-xs">
        <Badge>#{row.seq}</Badge>
        <Badge tone="info">{row.kind}</Badge>
        {row.method !== undefined && <Text className="font-mono font-semibold">{row.method}</Text>}
        {row.latencyMs !== undefined && <span>{formatDuration(row.latencyMs)}</span>}
        {row.partnerSeq !== undefined && (
          <button type="button" className={`${buttonClass} !px-2 !py-0.5 !text-xs`} onClick={() => onSelect(row.partnerSeq as number)}>
            {row.kind === 'request' ? `Go to response #${row.partnerSeq}` : `Go to request #${row.partnerSeq}`}
          </button>
        )}
      </div>
      {note && <Note tone="warn">{note}</Note>}
      <Pre className="max-h-[60vh] overflow-auto rounded-md bg-zinc-50 p-2 dark:bg-zinc-950">{text}</Pre>
    </div>
  );
}
