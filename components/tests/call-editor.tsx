/**
 * One collection call being edited (issue 27): its name, kind, target, arguments (or a raw
 * request's params) as JSON, timeout, assertions as rows, and `extract` (variables for the calls
 * after it) as JSON. `Save changes` checks it all and hands back the call; a problem is said under
 * the fields and nothing is changed.
 */
import { useId, useState, type ReactNode } from 'react';
import type { CollectionCall } from '../../lib/collections/schema.ts';
import { AssertionRows } from './assertion-rows.tsx';
import { assertionsOf, rowOf, type AssertionRow } from './assertion-form.ts';
import { Text } from '../ui/text.tsx';
import { buttonClass, inputClass, labelClass } from '../ui/ui.tsx';

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

const TARGET_LABEL: Record<CollectionCall['kind'], string> = { tool: 'Tool name', resource: 'Resource URI', prompt: 'Prompt name', request: 'Method' };

type Parsed = { ok: true; value: Record<string, unknown> | undefined } | { ok: false; error: string };

/** A JSON object typed in a field (empty: none). */
export function objectField(text: string, what: string): Parsed {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: `${what} must be a JSON object` };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (e) {
    return { ok: false, error: `${what} are not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}

interface Draft {
  name: string;
  kind: CollectionCall['kind'];
  target: string;
  input: string;
  timeout: string;
  rows: AssertionRow[];
  extract: string;
}

const json = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));

function draftOf(call: CollectionCall): Draft {
  return { name: call.name, kind: call.kind, target: call.target, input: json(call.kind === 'request' ? call.params : call.arguments), timeout: call.timeoutMs === undefined ? '' : String(call.timeoutMs), rows: (call.assert ?? []).map(rowOf), extract: json(call.extract) };
}

/** The draft as a call, or the first problem. */
function callOf(d: Draft): { ok: true; call: CollectionCall } | { ok: false; error: string } {
  if (d.name.trim() === '') return { ok: false, error: 'Give the call a name' };
  if (d.target.trim() === '') return { ok: false, error: `The ${TARGET_LABEL[d.kind].toLowerCase()} is empty` };
  const input = objectField(d.input, d.kind === 'request' ? 'Params' : 'Arguments');
  if (!input.ok) return input;
  const extract = objectField(d.extract, 'Extract values');
  if (!extract.ok) return extract;
  if (extract.value && Object.values(extract.value).some((p) => typeof p !== 'string')) return { ok: false, error: 'Extract maps a variable name to a JSONPath string' };
  const timeout = d.timeout.trim() === '' ? undefined : Number(d.timeout);
  if (timeout !== undefined && !(timeout > 0)) return { ok: false, error: 'The timeout is not a positive number of milliseconds' };
  const asserted = assertionsOf(d.rows);
  if (!asserted.ok) return asserted;
  const call: CollectionCall = {
    name: d.name.trim(),
    kind: d.kind,
    target: d.target.trim(),
    ...(input.value && d.kind !== 'resource' ? (d.kind === 'request' ? { params: input.value } : { arguments: input.value }) : {}),
    ...(asserted.assertions.length > 0 ? { assert: asserted.assertions } : {}),
    ...(extract.value ? { extract: extract.value as Record<string, string> } : {}),
    ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
  };
  return { ok: true, call };
}

export interface CallEditorProps {
  call: CollectionCall;
  /** Keep it; returns why not (a name taken). */
  onSave(next: CollectionCall): string | undefined;
  onDone(): void;
}

export function CallEditor({ call, onSave, onDone }: CallEditorProps): ReactNode {
  const id = useId();
  const [d, setD] = useState(() => draftOf(call));
  const [error, setError] = useState<string>();
  const put = (patch: Partial<Draft>) => setD((old) => ({ ...old, ...patch }));
  const save = () => {
    const next = callOf(d);
    const why = next.ok ? onSave(next.call) : next.error;
    if (why) setError(why);
    else onDone();
  };
  return (
    <div role="group" aria-label={`Editing call ${call.name}`} className="space-y-2 rounded-md bg-zinc-50 p-2 dark:bg-zinc-950">
      <div className="grid gap-2 sm:grid-cols-[1fr_9rem_1fr_8rem]">
        <div><label htmlFor={`${id}-name`} className={labelClass}>Call name</label><input id={`${id}-name`} className={`${inputClass} text-xs`} value={d.name} onChange={(e) => put({ name: e.target.value })} /></div>
        <div>
          <label htmlFor={`${id}-kind`} className={labelClass}>Kind</label>
          <select id={`${id}-kind`} className={`${inputClass} text-xs`} value={d.kind} onChange={(e) => put({ kind: e.target.value as CollectionCall['kind'] })}>
            <option value="tool">tool</option><option value="resource">resource</option><option value="prompt">prompt</option><option value="request">request</option>
          </select>
        </div>
        <div><label htmlFor={`${id}-target`} className={labelClass}>{TARGET_LABEL[d.kind]}</label><input id={`${id}-target`} className={`${inputClass} font-mono text-xs`} value={d.target} onChange={(e) => put({ target: e.target.value })} /></div>
        <div><label htmlFor={`${id}-timeout`} className={labelClass}>Timeout (ms)</label><input id={`${id}-timeout`} inputMode="numeric" className={`${inputClass} text-xs`} value={d.timeout} placeholder="60000" onChange={(e) => put({ timeout: e.target.value })} /></div>
      </div>
      {d.kind !== 'resource' && (
        <div>
          <label htmlFor={`${id}-input`} className={labelClass}>{d.kind === 'request' ? 'Params (JSON)' : 'Arguments (JSON)'}</label>
          <textarea id={`${id}-input`} rows={4} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={d.input} onChange={(e) => put({ input: e.target.value })} />
        </div>
      )}
      <AssertionRows rows={d.rows} onChange={(rows) => put({ rows })} />
      <div>
        <label htmlFor={`${id}-extract`} className={labelClass}>Extract (JSON: variable name → JSONPath into the result)</label>
        <textarea id={`${id}-extract`} rows={2} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={d.extract} placeholder='{ "id": "$.structuredContent.id" }' onChange={(e) => put({ extract: e.target.value })} />
      </div>
      {error && <p role="alert" className="text-xs text-red-700 dark:text-red-300"><Text>{error}</Text></p>}
      <div className="flex gap-2">
        <button type="button" className={small} onClick={save}>Save changes</button>
        <button type="button" className={small} onClick={onDone}>Cancel edit</button>
      </div>
    </div>
  );
}
