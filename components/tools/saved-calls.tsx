/**
 * A server's saved calls (issue 9, item 6): each can be run, edited (name, arguments as JSON, or
 * a resource's URI) and deleted; `Run all` runs them in order and shows each result next to the
 * one before it, the changed ones marked `changed` with the differing lines highlighted.
 */
import { useId, useState, type ReactNode } from 'react';
import type { SavedCall } from '../../lib/workspace/workspace.ts';
import { Text } from '../ui/text.tsx';
import { Badge, buttonClass, inputClass, labelClass, Note, primaryButtonClass } from '../ui/ui.tsx';

export interface CallRunView {
  ok: boolean;
  text: string;
  at: number;
}

export interface SavedCallView {
  call: SavedCall;
  latest?: CallRunView;
  previous?: CallRunView;
  running: boolean;
  changed: boolean;
}

export interface SavedCallsProps {
  calls: readonly SavedCallView[];
  canRun: boolean;
  runningAll: boolean;
  onRun(call: SavedCall): void;
  onRunAll(): void;
  onDelete(name: string): void;
  /** Replace the call named `from`; returns why not. */
  onEdit(from: string, next: SavedCall): string | undefined;
}

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;
/** Lines per side: a result of thousands of lines is compared in full, shown in part. */
const SHOWN_LINES = 400;

const KIND: Record<SavedCall['kind'], string> = { tool: 'tools/call', resource: 'resources/read', prompt: 'prompts/get' };

/** One side of the comparison; lines absent from the other side are marked (a diff, roughly). */
function Side({ title, run, other, mark }: { title: string; run?: CallRunView; other?: CallRunView; mark: '+' | '-' }): ReactNode {
  if (!run) return <div><p className="text-xs font-medium">{title}</p><Note>No run yet.</Note></div>;
  const theirs = new Set(other?.text.split('\n') ?? []);
  const lines = run.text.split('\n');
  return (
    <div className="min-w-0">
      <p className="text-xs font-medium">{title} <span className="font-normal text-zinc-500 dark:text-zinc-400">{new Date(run.at).toLocaleTimeString()}{run.ok ? '' : ' · failed'}</span></p>
      <pre className="max-h-80 overflow-auto rounded border border-zinc-200 p-1 font-mono text-[11px] dark:border-zinc-700" tabIndex={0}>
        {lines.slice(0, SHOWN_LINES).map((line, i) => {
          const differs = other !== undefined && !theirs.has(line);
          return <div key={i} className={differs ? (mark === '+' ? 'bg-emerald-100 dark:bg-emerald-950' : 'bg-red-100 dark:bg-red-950') : undefined}>{differs ? `${mark} ` : '  '}<Text>{line}</Text></div>;
        })}
        {lines.length > SHOWN_LINES && <div>… {lines.length - SHOWN_LINES} more lines</div>}
      </pre>
    </div>
  );
}

function Editor({ call, onDone, onEdit }: { call: SavedCall; onDone(): void; onEdit: SavedCallsProps['onEdit'] }): ReactNode {
  const id = useId();
  const [name, setName] = useState(call.name);
  const [target, setTarget] = useState(call.target);
  const [args, setArgs] = useState(JSON.stringify(call.arguments ?? {}, null, 2));
  const [error, setError] = useState<string>();
  const save = () => {
    let parsed: unknown;
    if (call.kind !== 'resource') {
      try {
        parsed = JSON.parse(args);
      } catch (e) {
        return setError(`Arguments are not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return setError('Arguments must be a JSON object');
    }
    const next: SavedCall = { name: name.trim(), kind: call.kind, target: call.kind === 'resource' ? target.trim() : call.target, ...(call.kind !== 'resource' ? { arguments: parsed as Record<string, unknown> } : {}) };
    const why = next.name === '' ? 'Give the call a name' : onEdit(call.name, next);
    if (why) setError(why);
    else onDone();
  };
  return (
    <div role="group" aria-label={`Editing saved call ${call.name}`} className="space-y-1">
      <label htmlFor={`${id}-name`} className={labelClass}>Call name</label>
      <input id={`${id}-name`} className={`${inputClass} text-xs`} value={name} onChange={(e) => setName(e.target.value)} />
      {call.kind === 'resource' ? (
        <>
          <label htmlFor={`${id}-uri`} className={labelClass}>Resource URI</label>
          <input id={`${id}-uri`} className={`${inputClass} font-mono text-xs`} value={target} onChange={(e) => setTarget(e.target.value)} />
        </>
      ) : (
        <>
          <label htmlFor={`${id}-args`} className={labelClass}>Arguments (JSON)</label>
          <textarea id={`${id}-args`} rows={5} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={args} onChange={(e) => setArgs(e.target.value)} />
        </>
      )}
      {error && <p role="alert" className="text-xs text-red-700 dark:text-red-300"><Text>{error}</Text></p>}
      <div className="flex gap-2">
        <button type="button" className={small} onClick={save}>Save changes</button>
        <button type="button" className={small} onClick={onDone}>Cancel edit</button>
      </div>
    </div>
  );
}

function Row({ view, props }: { view: SavedCallView; props: SavedCallsProps }): ReactNode {
  const [editing, setEditing] = useState(false);
  const { call } = view;
  return (
    <li aria-label={call.name} className="space-y-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium"><Text>{call.name}</Text></span>
        <Badge>{KIND[call.kind]}</Badge>
        <span className="break-all font-mono text-xs"><Text>{call.target}</Text></span>
        {view.running && <Badge tone="info">running…</Badge>}
        {view.changed && <Badge tone="warn">changed</Badge>}
        {!view.changed && view.previous && view.latest && <Badge tone="good">same</Badge>}
        {view.latest && !view.latest.ok && <Badge tone="bad">failed</Badge>}
        <span className="ml-auto flex gap-1">
          <button type="button" className={small} disabled={!props.canRun || view.running} aria-label={`Run saved call ${call.name}`} onClick={() => props.onRun(call)}>Run</button>
          <button type="button" className={small} aria-label={`Edit saved call ${call.name}`} aria-expanded={editing} onClick={() => setEditing(!editing)}>Edit</button>
          <button type="button" className={small} aria-label={`Delete saved call ${call.name}`} onClick={() => props.onDelete(call.name)}>Delete</button>
        </span>
      </div>
      {call.kind !== 'resource' && <p className="break-all font-mono text-xs text-zinc-600 dark:text-zinc-300"><Text>{JSON.stringify(call.arguments ?? {})}</Text></p>}
      {editing && <Editor call={call} onDone={() => setEditing(false)} onEdit={props.onEdit} />}
      {view.latest && (
        <div className="grid gap-2 md:grid-cols-2">
          <Side title="Previous run" run={view.previous} other={view.latest} mark="-" />
          <Side title="This run" run={view.latest} other={view.previous} mark="+" />
        </div>
      )}
    </li>
  );
}

export function SavedCalls(props: SavedCallsProps): ReactNode {
  const changedCount = props.calls.filter((c) => c.changed).length;
  return (
    <section aria-label="Saved calls" className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-sm font-semibold">Saved calls ({props.calls.length})</h2>
        <button type="button" className={primaryButtonClass} disabled={!props.canRun || props.runningAll || props.calls.length === 0} onClick={props.onRunAll}>Run all</button>
        {props.runningAll && <span role="status" className="text-xs">Running…</span>}
        {!props.runningAll && changedCount > 0 && <span role="status" className="text-xs text-amber-800 dark:text-amber-300">{changedCount} changed since the previous run</span>}
      </div>
      {props.calls.length === 0 && <Note>No saved calls yet: use Save call next to Run tool, Read resource or Get prompt. They are kept in the workspace file.</Note>}
      <ul className="space-y-2">{props.calls.map((view) => <Row key={view.call.name} view={view} props={props} />)}</ul>
    </section>
  );
}
