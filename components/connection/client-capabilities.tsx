/**
 * Loupe's side of `initialize`: the capability checkboxes of the connection form, and what the
 * current connection declared (with the answer timeout for server requests).
 */
import { useId, type ReactNode } from 'react';
import { CHOICES, declaredList, setChoice } from '../../lib/client/capabilities.ts';
import { formatAge } from '../../lib/client/server-requests.ts';
import type { ClientCapabilityChoice } from '../../lib/wire/wire.ts';
import { Badge, inputClass, labelClass, Note } from '../ui/ui.tsx';

export interface CapabilityFieldsProps {
  choice: ClientCapabilityChoice;
  /** Seconds, as typed ('' = Loupe's default). */
  timeout: string;
  onChoice(choice: ClientCapabilityChoice): void;
  onTimeout(text: string): void;
}

/** Checkboxes for what Loupe declares on the next connect, and the answer timeout. */
export function CapabilityFields({ choice, timeout, onChoice, onTimeout }: CapabilityFieldsProps): ReactNode {
  const id = useId();
  return (
    <details className="rounded-md border border-zinc-200 p-2 text-sm dark:border-zinc-700">
      <summary className="cursor-pointer text-xs font-medium text-zinc-600 dark:text-zinc-300">Client capabilities ({declaredList(choice).length} declared)</summary>
      <fieldset className="mt-2">
        <legend className="sr-only">Declare on connect</legend>
        <div className="grid grid-cols-2 gap-x-3 gap-y-1">
          {CHOICES.map((c) => (
            <label key={c.key} className={`flex items-center gap-1.5 ${c.parent ? 'pl-4' : ''}`}>
              <input type="checkbox" className="size-4 accent-sky-600" checked={choice[c.key]} onChange={(e) => onChoice(setChoice(choice, c.key, e.target.checked))} />
              {c.label}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="mt-2">
        <label htmlFor={`${id}-timeout`} className={labelClass}>Answer timeout (seconds)</label>
        <input id={`${id}-timeout`} type="number" min={1} inputMode="numeric" className={inputClass} value={timeout} placeholder="600 (Loupe's default)" onChange={(e) => onTimeout(e.target.value)} />
        <p className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">A sampling or elicitation request nobody answers in this time gets an error reply.</p>
      </div>
    </details>
  );
}

/** What this connection declared, for the connection info. */
export function DeclaredCapabilities({ choice, timeoutMs }: { choice?: ClientCapabilityChoice; timeoutMs?: number }): ReactNode {
  if (!choice) return null;
  const declared = declaredList(choice);
  return (
    <div aria-label="Client capabilities" role="group" className="text-sm">
      <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Loupe declared</h3>
      {declared.length === 0 ? <Note>No client capabilities.</Note> : (
        <span className="flex flex-wrap gap-1">{declared.map((d) => <Badge key={d} tone="good">{d}</Badge>)}</span>
      )}
      {timeoutMs !== undefined && <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">Unanswered server requests get an error after {formatAge(timeoutMs)}.</p>}
    </div>
  );
}
