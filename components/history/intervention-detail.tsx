/**
 * An intervention row of the History in full (issue 13): what a rule or a person did to a frame,
 * in words, with the frame as it was (`original`) and what went on instead (`result`: the edited
 * or rewritten frame, or the answer sent back), each as the exact text. The links to the frames
 * around it are the History's (frame-detail.tsx `links`).
 */
import type { ReactNode } from 'react';
import { formatDuration } from '../../lib/trace/trace.ts';
import type { InterventionEvent } from '../../lib/wire/events.ts';
import { Pre } from '../ui/text.tsx';
import { CopyButtons } from './trace-copy-buttons.tsx';
import { FactList, type Fact } from '../ui/fact-list.tsx';

const BY: Record<InterventionEvent['by'], string> = { rule: 'A rule', person: 'You (the Intercept tab)', timer: 'The hold’s timer' };

function resultLabel(event: InterventionEvent): string {
  if (event.action === 'answered') return 'Answer sent back instead';
  return `What went on to the ${event.dir === 'out' ? 'server' : 'client'}`;
}

/** A held frame's release (issue 26): what went on is what the release says, not the frame as it was. */
export interface Release {
  seq: number;
  event: InterventionEvent;
}

function WentOn({ event, release, box }: { event: InterventionEvent; release?: Release; box: string }): ReactNode {
  const note = 'text-xs text-zinc-600 dark:text-zinc-300';
  if (event.result !== undefined) return <Pre className={box}>{event.result}</Pre>;
  if (event.action === 'dropped') return <p className={note}>Nothing: the frame was dropped.</p>;
  if (event.action !== 'held') return <p className={note}>The frame as it was.</p>;
  if (!release) return <p className={note}>Nothing yet: the frame is held (or what became of it is not in the History).</p>;
  const after = ` (intervention #${release.seq}: ${release.event.message})`;
  const done = release.event;
  if (done.action === 'dropped' || done.action === 'closed' || done.action === 'killed') return <p className={note}>Nothing{after}.</p>;
  if (done.action === 'answered') return <p className={note}>Nothing: an answer was sent back instead{after}.</p>;
  if (done.result !== undefined) {
    return (
      <>
        <p className={note}>The edited frame{after}:</p>
        <Pre className={box}>{done.result}</Pre>
      </>
    );
  }
  return <p className={note}>The frame as it was, once released{after}.</p>;
}

export function InterventionDetail({ event, release }: { event: InterventionEvent; release?: Release }): ReactNode {
  const facts: Fact[] = [
    ['What happened', event.message],
    ['By', event.rule ? `${BY[event.by]}: “${event.rule.name}” (${event.rule.action})` : BY[event.by]],
    ['Frame going', event.dir === 'out' ? 'to the server' : 'to the client'],
    ['Held for', event.heldMs === undefined ? undefined : formatDuration(event.heldMs)],
  ];
  const box = 'rounded-md bg-zinc-50 p-2 dark:bg-zinc-950';
  return (
    <div className="space-y-2 text-sm">
      <FactList facts={facts} mono={false} />
      <CopyButtons choices={[{ label: 'Copy original', text: event.original }, { label: 'Copy result', text: event.result }]} />
      <section aria-label="Original frame">
        <h4 className="text-xs font-semibold text-zinc-700 dark:text-zinc-200">Original frame</h4>
        <Pre className={box}>{event.original}</Pre>
      </section>
      <section aria-label={resultLabel(event)}>
        <h4 className="text-xs font-semibold text-zinc-700 dark:text-zinc-200">{resultLabel(event)}</h4>
        <WentOn event={event} release={release} box={box} />
      </section>
    </div>
  );
}
