/**
 * One collection in the Tests tab (issue 27): its server, its variables, its calls (each with its
 * kind, target, arguments and assertions, run alone, edited or deleted; a call added by hand), and
 * its latest run's results. Controls are named by what they act on: `Run collection NAME`,
 * `Run call NAME`, `Edit call NAME`.
 */
import { useId, useState, type ReactNode } from 'react';
import type { Collection, CollectionCall } from '../../lib/collections/schema.ts';
import type { CallVerdict } from '../../lib/collections/types.ts';
import { CallEditor, objectField } from './call-editor.tsx';
import { Results, type RunView } from './results.tsx';
import { assertionWords, KIND_METHOD } from './words.ts';
import { Text } from '../ui/text.tsx';
import { Badge, buttonClass, inputClass, labelClass, primaryButtonClass } from '../ui/ui.tsx';

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;


export interface CollectionProps {
  collection: Collection;
  run?: RunView;
  /** The workspace's server names, for `Server of NAME`. */
  servers: readonly string[];
  /** The server the tab shows: where a collection without one runs. */
  shownServer: string;
  canRun: boolean;
  /** Something runs already (one run at a time). */
  busy: boolean;
  onRun(only?: string): void;
  /** Replace the collection (rename, server, variables); returns why not. */
  onReplace(next: Collection): string | undefined;
  onDelete(): void;
  /** Keep `next` in place of the call named `from` (absent: a new call); returns why not. */
  onSaveCall(from: string | undefined, next: CollectionCall): string | undefined;
  onDeleteCall(name: string): void;
  onShowFrame(call: CallVerdict): void;
}

function CallRow({ call, props }: { call: CollectionCall; props: CollectionProps }): ReactNode {
  const [editing, setEditing] = useState(false);
  const input = call.kind === 'request' ? call.params : call.arguments;
  return (
    <li aria-label={call.name} className="space-y-1 rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium"><Text>{call.name}</Text></span>
        <Badge>{call.kind === 'request' ? call.target : KIND_METHOD[call.kind]}</Badge>
        {call.kind !== 'request' && <span className="break-all font-mono text-xs"><Text>{call.target}</Text></span>}
        <span className="ml-auto flex gap-1">
          <button type="button" className={small} disabled={!props.canRun || props.busy} aria-label={`Run call ${call.name}`} onClick={() => props.onRun(call.name)}>Run</button>
          <button type="button" className={small} aria-label={`Edit call ${call.name}`} aria-expanded={editing} onClick={() => setEditing(!editing)}>Edit</button>
          <button type="button" className={small} aria-label={`Delete call ${call.name}`} onClick={() => props.onDeleteCall(call.name)}>Delete</button>
        </span>
      </div>
      {input !== undefined && <p className="break-all font-mono text-xs text-zinc-600 dark:text-zinc-300"><Text>{JSON.stringify(input)}</Text></p>}
      {(call.assert ?? []).length > 0 && (
        <ul aria-label={`Assertions of ${call.name}`} className="list-inside list-disc text-xs text-zinc-700 dark:text-zinc-200">
          {(call.assert ?? []).map((a, i) => <li key={i}><Text>{assertionWords(a)}</Text></li>)}
        </ul>
      )}
      {call.extract && <p className="text-xs text-zinc-600 dark:text-zinc-300">Extracts <Text>{Object.keys(call.extract).join(', ')}</Text></p>}
      {editing && <CallEditor call={call} onSave={(next) => props.onSaveCall(call.name, next)} onDone={() => setEditing(false)} />}
    </li>
  );
}

/** Name and variables, edited in place. */
function Settings({ props, onDone }: { props: CollectionProps; onDone(): void }): ReactNode {
  const id = useId();
  const { collection } = props;
  const [name, setName] = useState(collection.name);
  const [variables, setVariables] = useState(collection.variables ? JSON.stringify(collection.variables, null, 2) : '');
  const [error, setError] = useState<string>();
  const save = () => {
    const vars = objectField(variables, 'Variables');
    const why = !vars.ok ? vars.error : props.onReplace({ ...collection, name: name.trim(), ...(vars.value ? { variables: vars.value } : { variables: undefined }) });
    if (why) setError(why);
    else onDone();
  };
  return (
    <div role="group" aria-label={`Editing collection ${collection.name}`} className="space-y-1 rounded-md bg-zinc-50 p-2 dark:bg-zinc-950">
      <label htmlFor={`${id}-name`} className={labelClass}>Collection name</label>
      <input id={`${id}-name`} className={`${inputClass} text-xs`} value={name} onChange={(e) => setName(e.target.value)} />
      <label htmlFor={`${id}-vars`} className={labelClass}>Variables (JSON: name → value, used as {'{{name}}'})</label>
      <textarea id={`${id}-vars`} rows={3} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={variables} placeholder='{ "greeting": "hi" }' onChange={(e) => setVariables(e.target.value)} />
      {error && <p role="alert" className="text-xs text-red-700 dark:text-red-300"><Text>{error}</Text></p>}
      <div className="flex gap-2">
        <button type="button" className={small} onClick={save}>Save collection</button>
        <button type="button" className={small} onClick={onDone}>Cancel edit</button>
      </div>
    </div>
  );
}

function Header({ props, editing, setEditing, adding, setAdding }: { props: CollectionProps; editing: boolean; setEditing(v: boolean): void; adding: boolean; setAdding(v: boolean): void }): ReactNode {
  const { collection } = props;
  const id = useId();
  const unknown = collection.server !== undefined && !props.servers.includes(collection.server);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <h3 className="text-sm font-semibold"><Text>{collection.name}</Text></h3>
      <Badge>{collection.calls.length} {collection.calls.length === 1 ? 'call' : 'calls'}</Badge>
      <label htmlFor={`${id}-server`} className="text-xs text-zinc-600 dark:text-zinc-300">Runs on</label>
      <select id={`${id}-server`} aria-label={`Server of ${collection.name}`} className={`${inputClass} !w-auto !py-0.5 text-xs`} value={collection.server ?? ''} onChange={(e) => props.onReplace({ ...collection, server: e.target.value === '' ? undefined : e.target.value })}>
        <option value="">the server shown ({props.shownServer})</option>
        {unknown && <option value={collection.server}>{collection.server} (not in this workspace)</option>}
        {props.servers.map((s) => <option key={s} value={s}>{s}</option>)}
      </select>
      <span className="ml-auto flex flex-wrap gap-1">
        <button type="button" className={primaryButtonClass} disabled={!props.canRun || props.busy || collection.calls.length === 0} aria-label={`Run collection ${collection.name}`} onClick={() => props.onRun()}>Run</button>
        <button type="button" className={small} aria-label={`Add call to ${collection.name}`} aria-expanded={adding} onClick={() => setAdding(!adding)}>Add call</button>
        <button type="button" className={small} aria-label={`Rename collection ${collection.name}`} aria-expanded={editing} onClick={() => setEditing(!editing)}>Rename</button>
        <button type="button" className={small} aria-label={`Delete collection ${collection.name}`} onClick={props.onDelete}>Delete</button>
      </span>
    </div>
  );
}

export function CollectionCard(props: CollectionProps): ReactNode {
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);
  const { collection, run } = props;
  const fresh: CollectionCall = { name: `call ${collection.calls.length + 1}`, kind: 'tool', target: '' };
  return (
    <section aria-label={`Collection ${collection.name}`} className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3 shadow-sm dark:border-zinc-700 dark:bg-zinc-900">
      <Header props={props} editing={editing} setEditing={setEditing} adding={adding} setAdding={setAdding} />
      {editing && <Settings props={props} onDone={() => setEditing(false)} />}
      {collection.variables && !editing && <p className="break-all text-xs text-zinc-600 dark:text-zinc-300">Variables <Text>{JSON.stringify(collection.variables)}</Text></p>}
      {adding && <CallEditor call={fresh} onSave={(next) => props.onSaveCall(undefined, next)} onDone={() => setAdding(false)} />}
      {collection.calls.length === 0 && !adding && <p className="text-xs text-zinc-500 dark:text-zinc-400">No calls yet: use Save as test on a History row or a Result, or Add call.</p>}
      <ul className="space-y-1">{collection.calls.map((call) => <CallRow key={call.name} call={call} props={props} />)}</ul>
      {run && <Results collection={collection.name} server={run.server} running={run.running} calls={run.calls} counts={run.counts} durationMs={run.durationMs} error={run.error} onShowFrame={props.onShowFrame} />}
    </section>
  );
}
