/**
 * The History's cells for a multi-round call (2026-07-28, lib/trace/rounds.ts): the first
 * request's row names the call and its rounds (`tools/call confirm-delete · 3 rounds ·
 * input_required → complete`) with `Show rounds` / `Hide rounds`; an opened group's other frames
 * say which round they belong to.
 */
import type { ReactNode } from 'react';
import { describeGroup, roundNote, type RoundGroup } from '../../lib/trace/rounds.ts';
import type { HistoryRow } from '../../lib/trace/trace.ts';
import { Text } from '../ui/text.tsx';

export interface HistoryRounds {
  groupOf(row: HistoryRow): RoundGroup | undefined;
  /** First-request seqs of the groups shown open. */
  open: ReadonlySet<number>;
  onToggle(headSeq: number, open: boolean): void;
}

/** How a row stands in its group: the group's first request (open or closed), or one of its rounds. */
export type RoundPlace = { kind: 'head'; group: RoundGroup; open: boolean } | { kind: 'member'; note?: string };

export function roundPlace(rounds: HistoryRounds | undefined, row: HistoryRow): RoundPlace | undefined {
  const group = rounds?.groupOf(row);
  if (!group || !rounds) return undefined;
  if (group.head === row) return { kind: 'head', group, open: rounds.open.has(group.headSeq) };
  return { kind: 'member', note: roundNote(group, row) };
}

const MUTED = 'text-zinc-600 dark:text-zinc-400';

/** The Method cell of a group's first request. */
export function RoundHeadCell({ group, open, onToggle }: { group: RoundGroup; open: boolean; onToggle(open: boolean): void }): ReactNode {
  const summary = describeGroup(group);
  return (
    <>
      {/* The title gives way first: the rounds and how they ended are what this row is for. */}
      <span className="min-w-[2.5rem] shrink-[4] truncate" title={`${summary.title} · ${summary.text}`}>
        <Text>{summary.title}</Text>
      </span>
      <span title={summary.text} className={`min-w-0 truncate font-normal ${summary.isError ? 'text-red-700 dark:text-red-300' : MUTED}`}>{summary.text}</span>
      <button
        type="button"
        aria-expanded={open}
        className="ml-auto shrink-0 rounded border border-zinc-300 px-1 text-[11px] font-normal hover:bg-zinc-100 dark:border-zinc-600 dark:hover:bg-zinc-800"
        onClick={(event) => {
          event.stopPropagation();
          onToggle(!open);
        }}
      >
        {open ? 'Hide rounds' : 'Show rounds'}
      </button>
    </>
  );
}

/** The marker before a round's method, so that an opened group reads as one. */
export function RoundMarker(): ReactNode {
  return <span aria-hidden className={`${MUTED} shrink-0`}>↳</span>;
}

/** The latency of a closed group: first request to final answer. */
export function groupLatency(group: RoundGroup): number | undefined {
  return describeGroup(group).latencyMs;
}
