/**
 * The raw trace as a table of fixed-height rows, windowed (virtual-list.tsx): one row per frame,
 * stdout noise line, stderr chunk, HTTP exchange or transport event, newest at the bottom.
 * In the folded view a request's row also stands for its response; a multi-round call
 * (2026-07-28) is one group row, its first request, until `Show rounds` (history-rounds.tsx).
 */
import type { KeyboardEvent, ReactNode } from 'react';
import { indexOfSeq } from '../../lib/trace/filter.ts';
import { VIOLATION_LABELS } from '../../lib/trace/violations.ts';
import { rowTarget } from '../../lib/trace/row-target.ts';
import { formatDuration, formatSize, type HistoryRow } from '../../lib/trace/trace.ts';
import { groupLatency, RoundHeadCell, RoundMarker, roundPlace, type HistoryRounds, type RoundPlace } from './rounds.tsx';
import { Text } from '../ui/text.tsx';
import { VirtualList } from '../ui/virtual-list.tsx';

export interface HistoryTableProps {
  rows: readonly HistoryRow[];
  /** Changes when rows changed in place (pairing, cancellation). */
  version: number;
  folded: boolean;
  selectedSeq?: number;
  /** Bumped to scroll the selected row into view. */
  scrollToken: number;
  onSelect(seq: number): void;
  /** Arrow keys: move the selection by this many rows. */
  onMove(delta: number): void;
  /**
   * The merged History of `All servers` (issue 9): rows of several sessions, whose seqs repeat,
   * so a row is known by its session and seq; a `Server` column names each row's server.
   */
  merged?: MergedRows;
  /** The viewed trace's multi-round calls (absent: none are grouped). */
  rounds?: HistoryRounds;
}

export interface MergedRows {
  /** The server's name for a session id. */
  serverOf(session: string): string;
  selected?: HistoryRow;
  /** Position of the selected row in `rows`, or -1. */
  selectedIndex: number;
  onSelectRow(row: HistoryRow): void;
}

export const ROW_HEIGHT = 26;
/*
 * The columns fit their longest usual text ("999.9 KiB", "cancelled", "notifications/tools/list_changed").
 * Where the table is narrower than them all (a list beside a wide detail pane), Time, Dir and Id
 * give way (all three are in the frame detail; the direction becomes an arrow before the kind), so
 * that the method, Size and Latency stay whole and in view: container queries on the table's own
 * width, whatever the panes around it do.
 */
const COLUMNS = 'grid grid-cols-[3rem_7.125rem_minmax(14.5rem,1fr)_5.25rem_5.25rem] @min-[49rem]:grid-cols-[3.5rem_6.75rem_4.75rem_6.5rem_minmax(12rem,1fr)_5rem_5.25rem_5.25rem]';
const MERGED_COLUMNS = 'grid grid-cols-[3rem_6.75rem_7rem_7.125rem_minmax(14.5rem,1fr)_5.25rem_5.25rem] @min-[57rem]:grid-cols-[3.5rem_6.75rem_8rem_4.75rem_6.5rem_minmax(12rem,1fr)_5rem_5.25rem_5.25rem]';
/**
 * Time, Dir and Id: shown only where the table is wide enough for every column; the arrow only where it is not.
 * The merged History keeps Time at every width: across servers, the clock is the only order there is.
 */
const WIDE_ONLY = 'hidden @min-[49rem]:block';
const MERGED_WIDE_ONLY = 'hidden @min-[57rem]:block';
const NARROW_ONLY = '@min-[49rem]:hidden';
const MERGED_NARROW_ONLY = '@min-[57rem]:hidden';

/** Secondary cell text, AA contrast (4.5:1) on the row backgrounds of both themes. */
const MUTED = 'text-zinc-600 dark:text-zinc-400';

const KIND_COLORS: Record<string, string> = {
  request: 'text-sky-700 dark:text-sky-300',
  response: 'text-emerald-700 dark:text-emerald-300',
  error: 'text-red-700 dark:text-red-300',
  notification: 'text-violet-700 dark:text-violet-300',
  invalid: 'text-amber-700 dark:text-amber-300',
  'stdout noise': 'text-amber-700 dark:text-amber-300',
  stderr: 'text-zinc-600 dark:text-zinc-400',
  http: 'text-teal-700 dark:text-teal-300',
  intervention: 'text-fuchsia-700 dark:text-fuchsia-300',
  provider: 'text-indigo-700 dark:text-indigo-300',
};

export function clockTime(ts: number): string {
  const d = new Date(ts);
  return `${d.toTimeString().slice(0, 8)}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

function Latency({ row, place }: { row: HistoryRow; place?: RoundPlace }): ReactNode {
  if (place?.kind === 'head' && !place.open) {
    const total = groupLatency(place.group);
    return total === undefined ? <span className="text-sky-700 dark:text-sky-300">pending</span> : formatDuration(total);
  }
  if (row.latencyMs !== undefined) return formatDuration(row.latencyMs);
  if (row.cancelled) return <span className="text-amber-700 dark:text-amber-400">cancelled</span>;
  if (row.unanswered) return <span className={MUTED} title="The connection was replaced before an answer came">no answer</span>;
  if (row.pending) return <span className="text-sky-700 dark:text-sky-300">pending</span>;
  if (row.unmatched) return <span className="text-amber-700 dark:text-amber-400" title="No matching request">unmatched</span>;
  return null;
}

function kindLabel(row: HistoryRow, folded: boolean): string {
  if (!folded || row.kind !== 'request' || row.partner?.partner !== row) return row.kind;
  return `request ⇄ ${row.partner.kind}`;
}

/** The MCP Apps view a frame went to or came from (issue 24): its dir is then the view's side, not the server's. */
function viewOf(row: HistoryRow): string | undefined {
  return row.event.kind === 'frame' ? row.event.view : undefined;
}

function direction(row: HistoryRow, folded: boolean): string {
  const pair = folded && row.kind === 'request' && row.partner?.partner === row;
  // A view's frames: `in` is view→host, `out` host→view.
  if (viewOf(row) !== undefined) return `${pair ? '⇄ ' : ''}${row.dir === 'out' ? 'host→view' : 'view→host'}`;
  if (pair) return row.dir === 'out' ? '⇄ out' : '⇄ in';
  return row.dir === 'out' ? '→ out' : row.dir === 'in' ? '← in' : '';
}

/** Badges in words: what was sent by hand, cancelled, or broke the protocol. */
export function rowNotes(row: HistoryRow, folded: boolean): string[] {
  const notes: string[] = [];
  if (row.origin) notes.push(row.origin === 'composer' ? 'composed' : row.origin);
  // MCP Apps (issue 24): which view a frame is between Loupe and, or which view Loupe sent it to the server for.
  if (row.event.kind === 'frame' && row.event.view !== undefined) notes.push(`view ${row.event.view}`);
  if (row.event.kind === 'frame' && row.event.byView !== undefined) notes.push(`for view ${row.event.byView}`);
  if (row.cancelled) notes.push('cancelled');
  // A frame that went on after a rule or a person acted on it (issue 13).
  if (row.event.kind === 'frame' && row.event.intervention !== undefined) notes.push(`after intervention #${row.event.intervention}`);
  for (const v of row.violations ?? []) notes.push(`⚠ ${VIOLATION_LABELS[v.code]}`);
  if (folded && row.partner?.partner === row && row.kind === 'request') for (const v of row.partner.violations ?? []) notes.push(`⚠ ${VIOLATION_LABELS[v.code]}`);
  return notes;
}

function idText(row: HistoryRow): string {
  if (row.id !== undefined) return JSON.stringify(row.id);
  return row.httpSessionId ? `sid ${row.httpSessionId}` : '';
}

interface RowProps {
  row: HistoryRow;
  index: number;
  folded: boolean;
  selected: boolean;
  server?: string;
  rounds?: HistoryRounds;
  onSelect(): void;
}

/** The method, and beside it the tool, prompt or URI the call is about (row-target.ts). */
function MethodText({ row }: { row: HistoryRow }): ReactNode {
  const target = rowTarget(row);
  return (
    <>
      <span data-method="" className="max-w-full shrink-0 truncate"><Text>{row.method}</Text></span>
      {target !== undefined && <span className={`min-w-0 truncate font-normal ${MUTED}`}><Text>{target}</Text></span>}
    </>
  );
}

function MethodCell({ row, place, rounds }: { row: HistoryRow; place?: RoundPlace; rounds?: HistoryRounds }): ReactNode {
  if (place?.kind === 'head' && rounds) return <RoundHeadCell group={place.group} open={place.open} onToggle={(open) => rounds.onToggle(place.group.headSeq, open)} />;
  // An intervention says what was done, in words (its summary names the rule or the person).
  if (row.event.kind === 'intervention') return <span className="min-w-0 truncate font-normal"><Text>{`${row.method !== undefined ? `${row.method} · ` : ''}${row.summary ?? ''}`}</Text></span>;
  return (
    <>
      {place?.kind === 'member' && <RoundMarker />}
      {row.method !== undefined ? (
        <span className="flex min-w-0 items-baseline gap-1.5"><MethodText row={row} /></span>
      ) : (
        <span className="min-w-0 truncate"><Text className="font-normal text-zinc-600 dark:text-zinc-300">{row.summary}</Text></span>
      )}
    </>
  );
}

function Row({ row, index, folded, selected, server, rounds, onSelect }: RowProps): ReactNode {
  const place = roundPlace(rounds, row);
  const notes = rowNotes(row, folded);
  if (place?.kind === 'member' && place.note) notes.unshift(place.note);
  const warn = notes.some((n) => n.startsWith('⚠'));
  const failed = row.isError || (folded && row.kind === 'request' && row.partner?.partner === row && row.partner.isError);
  // A restart (issue 25) is a line across the History: what follows is the new process.
  const restart = row.event?.kind === 'transport' && row.event.marker === 'restart';
  const wide = server === undefined ? WIDE_ONLY : MERGED_WIDE_ONLY;
  const tint = selected ? 'bg-sky-100 dark:bg-sky-900/60' : warn ? 'bg-amber-50 dark:bg-amber-950/40' : failed ? 'bg-red-50/60 dark:bg-red-950/30' : restart ? 'border-t-2 border-t-violet-500 bg-violet-50 font-semibold dark:border-t-violet-400 dark:bg-violet-950/40' : '';
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-current={selected ? true : undefined}
      data-marker={restart ? 'restart' : undefined}
      onClick={onSelect}
      style={{ height: ROW_HEIGHT }}
      className={`${server === undefined ? COLUMNS : MERGED_COLUMNS} cursor-pointer items-center border-b border-zinc-100 hover:bg-zinc-50 dark:border-zinc-800 dark:hover:bg-zinc-800/60 ${tint}`}
    >
      <span role="cell" className={`px-2 text-right tabular-nums ${MUTED}`}>
        <button type="button" tabIndex={-1} onClick={(e) => { e.stopPropagation(); onSelect(); }} className="hover:underline" aria-label={`Show frame ${row.seq}`}>{row.seq}</button>
      </span>
      <span role="cell" className={`${server === undefined ? WIDE_ONLY : ''} truncate px-2 tabular-nums ${MUTED}`}>{clockTime(row.ts)}</span>
      {server !== undefined && <span role="cell" className="truncate px-2" title={server}><Text>{server}</Text></span>}
      <span role="cell" className={`${wide} truncate px-1`}>{direction(row, folded)}</span>
      <span role="cell" className={`truncate px-1.5 ${KIND_COLORS[folded && row.kind === 'request' && row.partner?.isError ? 'error' : row.kind] ?? 'text-zinc-600 dark:text-zinc-300'}`}>
        {row.dir !== undefined && <span aria-hidden="true" className={`${server === undefined ? NARROW_ONLY : MERGED_NARROW_ONLY} text-zinc-600 dark:text-zinc-400`}>{row.dir === 'out' ? '→ ' : '← '}</span>}
        {kindLabel(row, folded)}
      </span>
      <span role="cell" className="flex min-w-0 items-center gap-1.5 overflow-hidden px-1.5 font-medium">
        <MethodCell row={row} place={place} rounds={rounds} />
        {notes.length > 0 && (
          <span className={`ml-auto min-w-[1.75rem] max-w-[60%] truncate rounded [flex-shrink:1000] px-1 text-[11px] font-normal ${warn ? 'bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100' : 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200'}`} title={notes.join(', ')}>
            {notes.join(' · ')}
          </span>
        )}
      </span>
      <span role="cell" className={`${wide} truncate px-2 ${MUTED}`}><Text>{idText(row)}</Text></span>
      <span role="cell" className={`truncate px-2 text-right tabular-nums ${MUTED}`}>{row.size === undefined ? '' : formatSize(row.size)}</span>
      <span role="cell" className="truncate px-2 text-right tabular-nums"><Latency row={row} place={place} /></span>
    </div>
  );
}

function Header({ merged }: { merged: boolean }): ReactNode {
  const cell = 'px-2';
  const wide = merged ? MERGED_WIDE_ONLY : WIDE_ONLY;
  // zinc-700 on zinc-100 and zinc-300 on zinc-800: above 4.5:1 at this small size (zinc-500 was ~4.4 and ~3.9).
  return (
    <div role="row" aria-rowindex={1} style={{ height: ROW_HEIGHT }} className={`${merged ? MERGED_COLUMNS : COLUMNS} items-center bg-zinc-100 text-left text-[11px] uppercase tracking-wide text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300`}>
      <span role="columnheader" className={`${cell} text-right`}>#</span>
      <span role="columnheader" className={`${cell} ${merged ? '' : wide}`}>Time</span>
      {merged && <span role="columnheader" className={cell}>Server</span>}
      <span role="columnheader" className={`px-1 ${wide}`}>Dir</span>
      <span role="columnheader" className={cell}>Kind</span>
      <span role="columnheader" className={cell}>Method · notes</span>
      <span role="columnheader" className={`${cell} ${wide}`}>Id</span>
      <span role="columnheader" className={`${cell} text-right`}>Size</span>
      <span role="columnheader" className={`${cell} text-right`}>Latency</span>
    </div>
  );
}

/** A row of the merged History: selected when its session and seq are the selected row's. */
function MergedRow({ row, index, folded, merged }: { row: HistoryRow; index: number; folded: boolean; merged: MergedRows }): ReactNode {
  const chosen = merged.selected;
  const selected = chosen !== undefined && chosen.seq === row.seq && chosen.event.session === row.event.session;
  return <Row row={row} index={index} folded={folded} selected={selected} server={merged.serverOf(row.event.session)} onSelect={() => merged.onSelectRow(row)} />;
}

export function HistoryTable({ rows, version, folded, selectedSeq, scrollToken, onSelect, onMove, merged, rounds }: HistoryTableProps): ReactNode {
  const selectedIndex = merged ? merged.selectedIndex : indexOfSeq(rows, selectedSeq);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const delta = { ArrowDown: 1, ArrowUp: -1, PageDown: 20, PageUp: -20, End: rows.length, Home: -rows.length }[event.key];
    if (delta === undefined) return;
    event.preventDefault();
    onMove(delta);
  };
  return (
    <div className="@container overflow-x-auto rounded-md border border-zinc-200 dark:border-zinc-700">
      <VirtualList
        count={rows.length}
        rowHeight={ROW_HEIGHT}
        version={version}
        header={<Header merged={merged !== undefined} />}
        height="min(60vh, 40rem)"
        followTail
        scrollTo={{ index: selectedIndex, token: scrollToken }}
        onKeyDown={onKeyDown}
        role="table"
        label="Frames"
        ariaRowCount={rows.length + 1}
        className={`${merged ? 'min-w-[49.25rem] @min-[57rem]:min-w-[57rem]' : 'min-w-[35.25rem] @min-[49rem]:min-w-[49rem]'} font-mono text-xs focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500/40`}
        renderRow={(i) => (merged ? <MergedRow key={`${rows[i].event.session}:${rows[i].seq}`} row={rows[i]} index={i} folded={folded} merged={merged} /> : <Row key={rows[i].seq} row={rows[i]} index={i} folded={folded} selected={rows[i].seq === selectedSeq} rounds={rounds} onSelect={() => onSelect(rows[i].seq)} />)}
      />
    </div>
  );
}
