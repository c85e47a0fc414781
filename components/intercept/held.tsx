/**
 * The Intercept tab's Held frames region (issue 13): each frame a `pause` rule holds, of any
 * session, with its session's name, which way it was going, its method, the rule, a live timer
 * (the frame goes on as it is when it runs out) and its exact text, editable. The person forwards
 * it, forwards the edit, drops it, or (a request) answers it instead; `Release all` forwards every
 * one as it is.
 */
import { useId, type ReactNode } from 'react';
import type { HeldFrame, HoldDecision } from '../../lib/model/rules.ts';
import { countdownWords, directionWords } from './rule-words.ts';
import { Text } from '../ui/text.tsx';
import { Badge, buttonClass, inputClass, Note, Panel, primaryButtonClass } from '../ui/ui.tsx';
import { useNow } from '../ui/use-now.ts';

export interface HeldCard {
  frame: HeldFrame;
  /** The session's name as the Servers panel shows it. */
  sessionName: string;
  /** The text as edited (absent: as held). */
  text?: string;
  /** `Respond instead` is open with this answer. */
  response?: string;
}

export interface InterceptHeldProps {
  holds: readonly HeldCard[];
  canAct: boolean;
  /** How the latest decision ended when not as asked, in words. */
  notice?: string;
  onText(holdId: string, text: string): void;
  onResponse(holdId: string, open: boolean): void;
  onResponseText(holdId: string, text: string): void;
  onDecide(holdId: string, decision: HoldDecision): void;
  onReleaseAll(): void;
}

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function Card({ card, now, canAct, props }: { card: HeldCard; now: number; canAct: boolean; props: InterceptHeldProps }): ReactNode {
  const id = useId();
  const { frame } = card;
  const text = card.text ?? frame.raw;
  const edited = text !== frame.raw;
  const left = frame.since + frame.timeoutMs - now;
  const title = `${frame.method ?? 'frame'} ${directionWords(frame.dir)}, ${card.sessionName}`;
  return (
    <div role="group" aria-label={title} className="space-y-2 rounded-md border border-amber-300 bg-amber-50/50 p-2 text-sm dark:border-amber-700 dark:bg-amber-950/30">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <Badge tone="warn">held</Badge>
        <Text className="font-semibold">{card.sessionName}</Text>
        <span>{directionWords(frame.dir)}</span>
        {frame.method && <Text className="font-mono font-semibold">{frame.method}</Text>}
        <span>
          by rule “<Text>{frame.rule.name}</Text>”
        </span>
        <span className="ml-auto tabular-nums text-zinc-700 dark:text-zinc-200" title="When the timer runs out, the frame goes on as it was held">{countdownWords(left)}</span>
      </div>
      <div>
        <label htmlFor={`${id}-text`} className="sr-only">Held frame</label>
        <textarea id={`${id}-text`} rows={4} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={text} aria-describedby={edited && !isJson(text) ? `${id}-json` : undefined} onChange={(e) => props.onText(frame.holdId, e.target.value)} />
        {edited && !isJson(text) && <p id={`${id}-json`} className="text-xs text-amber-800 dark:text-amber-300">Not JSON: the {frame.dir === 'to-server' ? 'server' : 'client'} receives text it cannot parse.</p>}
      </div>
      <div className="flex flex-wrap gap-1">
        <button type="button" className={small} disabled={!canAct} onClick={() => props.onDecide(frame.holdId, { action: 'forward' })}>Forward</button>
        <button type="button" className={small} disabled={!canAct || !edited} title={edited ? undefined : 'Edit the text first'} onClick={() => props.onDecide(frame.holdId, { action: 'forward-edited', raw: text })}>Forward edited</button>
        <button type="button" className={small} disabled={!canAct} onClick={() => props.onDecide(frame.holdId, { action: 'drop' })}>Drop</button>
        {frame.isRequest && (
          <button type="button" className={small} aria-expanded={card.response !== undefined} disabled={!canAct} onClick={() => props.onResponse(frame.holdId, card.response === undefined)}>Respond instead</button>
        )}
      </div>
      {frame.isRequest && card.response !== undefined && (
        <div className="space-y-1">
          <label htmlFor={`${id}-response`} className="block text-xs font-medium text-zinc-600 dark:text-zinc-300">Response</label>
          <textarea id={`${id}-response`} rows={5} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={card.response} aria-describedby={`${id}-response-hint`} onChange={(e) => props.onResponseText(frame.holdId, e.target.value)} />
          <p id={`${id}-response-hint`} className="text-xs text-zinc-600 dark:text-zinc-300">Goes back to the {frame.dir === 'to-server' ? 'client' : 'server'} as the answer; the request is not forwarded.</p>
          <div className="flex gap-1">
            <button type="button" className={primaryButtonClass} disabled={!canAct} onClick={() => props.onDecide(frame.holdId, { action: 'respond', raw: card.response ?? '' })}>Send response</button>
            <button type="button" className={buttonClass} onClick={() => props.onResponse(frame.holdId, false)}>Close response</button>
          </div>
        </div>
      )}
    </div>
  );
}

export function InterceptHeld(props: InterceptHeldProps): ReactNode {
  const { holds, canAct } = props;
  const now = useNow(1_000, holds.length > 0);
  return (
    <Panel
      title={`Held frames (${holds.length})`}
      label="Held frames"
      actions={<button type="button" className={small} disabled={!canAct || holds.length === 0} onClick={props.onReleaseAll}>Release all</button>}
    >
      {props.notice && <Note tone="warn">{props.notice}</Note>}
      {holds.length === 0 ? (
        <Note>No frame is held. A Pause rule holds the frames it matches here until you decide.</Note>
      ) : (
        <div className="space-y-2">
          {holds.map((card) => <Card key={card.frame.holdId} card={card} now={now} canAct={canAct} props={props} />)}
        </div>
      )}
    </Panel>
  );
}
