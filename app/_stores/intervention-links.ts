/**
 * The links of the History between an intervention (issue 13) and its frames, both ways, as the
 * History links a request and its response: the intervention names the frame it acted on (`of`,
 * when that frame was recorded first: one from the server) and the frame that went on names the
 * intervention (`FrameEvent.intervention`). The other two directions are found by looking ahead
 * from the row: both frames are recorded close after, so a bounded look costs little and is done
 * only for the row shown in full.
 */
import type { FrameLink } from '@/components/history/frame-detail.tsx';
import { indexOfSeq } from '../../lib/trace/filter.ts';
import type { HistoryRow } from '../../lib/trace/trace.ts';
import type { InterventionEvent } from '../../lib/wire/events.ts';

/** How many rows after a frame or an intervention to look for what links back to it. */
export const LINK_LOOKAHEAD = 2_000;

export function interventionLinks(rows: readonly HistoryRow[], row: HistoryRow | undefined): FrameLink[] {
  if (!row) return [];
  const event = row.event;
  const links: FrameLink[] = [];
  if (event.kind === 'intervention') {
    if (event.of !== undefined) links.push({ seq: event.of, label: `Go to the original frame #${event.of}` });
    const release = releaseOf(rows, row);
    if (release !== undefined) links.push({ seq: release.seq, label: `Go to the release #${release.seq}` });
    const after = lookAhead(rows, row.seq, (r) => r.event.kind === 'frame' && r.event.intervention === row.seq);
    if (after !== undefined) links.push({ seq: after, label: `Go to the frame that went on #${after}` });
    return links;
  }
  if (event.kind !== 'frame') return links;
  if (event.intervention !== undefined) links.push({ seq: event.intervention, label: `Go to intervention #${event.intervention}` });
  const acted = lookAhead(rows, row.seq, (r) => r.event.kind === 'intervention' && r.event.of === row.seq);
  if (acted !== undefined && acted !== event.intervention) links.push({ seq: acted, label: `Go to intervention #${acted}` });
  return links;
}

/**
 * What became of a held frame (issue 26): the later intervention that forwarded, edited, dropped or
 * answered it, known by the same direction and the same original text. Undefined while it is held.
 */
export function releaseOf(rows: readonly HistoryRow[], row: HistoryRow | undefined): { seq: number; event: InterventionEvent } | undefined {
  const held = row?.event;
  if (!row || held?.kind !== 'intervention' || held.action !== 'held') return undefined;
  const seq = lookAhead(rows, row.seq, (r) => r.event.kind === 'intervention' && r.event.action !== 'held' && r.event.dir === held.dir && r.event.original === held.original);
  const event = seq === undefined ? undefined : rows[indexOfSeq(rows, seq)]?.event;
  return event?.kind === 'intervention' && seq !== undefined ? { seq, event } : undefined;
}

function lookAhead(rows: readonly HistoryRow[], seq: number, test: (row: HistoryRow) => boolean): number | undefined {
  const from = indexOfSeq(rows, seq);
  if (from < 0) return undefined;
  const end = Math.min(rows.length, from + 1 + LINK_LOOKAHEAD);
  for (let i = from + 1; i < end; i += 1) if (test(rows[i])) return rows[i].seq;
  return undefined;
}
