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

export function InterventionDetail({ event }: { event: InterventionEvent }): ReactNode {
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
        {event.result === undefined ? <p className="text-xs text-zinc-600 dark:text-zinc-300">{event.action === 'dropped' ? 'Nothing: the frame was dropped.' : 'The frame as it was.'}</p> : <Pre className={box}>{event.result}</Pre>}
      </section>
    </div>
  );
}
