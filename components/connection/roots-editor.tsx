/** The roots Loupe offers the server (`roots/list`): an editable list of file:// URIs with names. */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { readRootInput } from '../../lib/client/roots.ts';
import type { Root } from '../../lib/wire/wire.ts';
import { Text } from '../ui/text.tsx';
import { buttonClass, inputClass, labelClass, Note, Panel } from '../ui/ui.tsx';

export interface RootsEditorProps {
  roots: readonly Root[];
  /** What happens to an edit, in words (sent now, or kept for the next connect). */
  note: string;
  /** Whether Loupe declared roots on this connection (false: the server cannot ask). */
  declared: boolean;
  onChange(roots: Root[]): void;
}

function AddRoot({ roots, onAdd }: { roots: readonly Root[]; onAdd(root: Root): void }): ReactNode {
  const id = useId();
  const [uri, setUri] = useState('');
  const [name, setName] = useState('');
  const [message, setMessage] = useState<{ text: string; bad: boolean }>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const read = readRootInput(uri, name, roots);
    if (!read.ok) {
      setMessage({ text: read.error, bad: true });
      return;
    }
    onAdd(read.root);
    setUri('');
    setName('');
    setMessage(read.warning ? { text: read.warning, bad: false } : undefined);
  };
  return (
    <form onSubmit={submit} noValidate className="mt-2 grid gap-2 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
      <div>
        <label htmlFor={`${id}-uri`} className={labelClass}>Root URI</label>
        <input id={`${id}-uri`} className={`${inputClass} font-mono`} value={uri} spellCheck={false} autoComplete="off" placeholder="file:///path/to/project or /path" onChange={(e) => { setUri(e.target.value); setMessage(undefined); }} />
      </div>
      <div>
        <label htmlFor={`${id}-name`} className={labelClass}>Root name</label>
        <input id={`${id}-name`} className={inputClass} value={name} autoComplete="off" placeholder="(optional)" onChange={(e) => setName(e.target.value)} />
      </div>
      <button type="submit" className={buttonClass}>Add root</button>
      <div aria-live="polite" className={`text-xs sm:col-span-3 ${message?.bad ? 'text-red-700 dark:text-red-300' : 'text-amber-800 dark:text-amber-300'}`}>{message && <Text>{message.text}</Text>}</div>
    </form>
  );
}

export function RootsEditor({ roots, note, declared, onChange }: RootsEditorProps): ReactNode {
  return (
    <Panel label="Roots" title="Roots">
      {!declared && <Note tone="warn">Loupe did not declare roots on this connection: the server cannot ask for them.</Note>}
      {roots.length === 0 ? <Note>No roots: Loupe answers roots/list with an empty list.</Note> : (
        <ul aria-label="Root list" className="space-y-1">
          {roots.map((root) => (
            <li key={root.uri} className="flex items-center gap-2 rounded border border-zinc-200 px-2 py-1 text-sm dark:border-zinc-700">
              <span className="min-w-0 flex-1">
                {root.name !== undefined && <Text className="font-semibold">{root.name}</Text>}
                {root.name !== undefined && ' '}
                <Text className="font-mono text-xs break-all text-zinc-600 dark:text-zinc-300">{root.uri}</Text>
              </span>
              <button type="button" aria-label={`Remove root ${root.uri}`} className="text-xs underline" onClick={() => onChange(roots.filter((r) => r.uri !== root.uri))}>Remove</button>
            </li>
          ))}
        </ul>
      )}
      <AddRoot roots={roots} onAdd={(root) => onChange([...roots, root])} />
      <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">{note}</p>
    </Panel>
  );
}
