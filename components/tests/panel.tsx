/**
 * The Tests tab (issue 27): the workspace's collections, each with its calls, assertions and latest
 * results; a new collection by name; `Run all collections`; `Open recording` turns a `--record`
 * file into a collection, whose notes are said here.
 */
import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { CollectionCard, type CollectionProps } from './collection.tsx';
import { Text } from '../ui/text.tsx';
import { buttonClass, inputClass, Note, primaryButtonClass } from '../ui/ui.tsx';

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

/** What turning a recording into a collection said: its name, or why not, and its notes. */
export interface RecordingNote {
  file: string;
  collection?: string;
  error?: string;
  notes: readonly string[];
}

export interface TestsPanelProps {
  /** Each collection's own props, without what the panel gives them all. */
  collections: readonly Omit<CollectionProps, 'servers' | 'shownServer' | 'canRun' | 'busy'>[];
  servers: readonly string[];
  shownServer: string;
  canRun: boolean;
  busy: boolean;
  runningAll: boolean;
  recording?: RecordingNote;
  onCreate(name: string): string | undefined;
  onRunAll(): void;
  onStop(): void;
  onOpenRecording(file: File): void;
}

function NewCollection({ onCreate }: { onCreate(name: string): string | undefined }): ReactNode {
  const id = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const create = () => {
    const why = onCreate(name);
    setError(why);
    if (!why) setName('');
  };
  const keys = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    create();
  };
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <label htmlFor={id} className="text-xs">New collection</label>
      <input id={id} className={`${inputClass} !w-44 !py-0.5 text-xs`} value={name} placeholder="smoke" onChange={(e) => setName(e.target.value)} onKeyDown={keys} />
      <button type="button" className={small} onClick={create}>Create collection</button>
      {error && <span role="alert" className="text-xs text-red-700 dark:text-red-300"><Text>{error}</Text></span>}
    </span>
  );
}

function Recording({ note }: { note: RecordingNote }): ReactNode {
  return (
    <div role="status" aria-label="Recording" className="rounded-md border border-zinc-200 p-2 text-xs dark:border-zinc-700">
      {note.error ? (
        <p className="text-red-700 dark:text-red-300">Could not turn <Text>{note.file}</Text> into a collection: <Text>{note.error}</Text></p>
      ) : (
        <p>Turned <Text>{note.file}</Text> into the collection <strong><Text>{note.collection ?? ''}</Text></strong>.</p>
      )}
      {note.notes.length > 0 && (
        <ul aria-label="Notes on the recording" className="mt-1 list-inside list-disc text-zinc-700 dark:text-zinc-200">
          {note.notes.map((n, i) => <li key={i}><Text>{n}</Text></li>)}
        </ul>
      )}
    </div>
  );
}

export function TestsPanel(props: TestsPanelProps): ReactNode {
  const shared = { servers: props.servers, shownServer: props.shownServer, canRun: props.canRun, busy: props.busy };
  return (
    <section aria-label="Tests" className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-sm font-semibold">Collections ({props.collections.length})</h2>
        <button type="button" className={primaryButtonClass} disabled={!props.canRun || props.busy || props.collections.length === 0} onClick={props.onRunAll}>Run all collections</button>
        {props.busy && <button type="button" className={small} onClick={props.onStop}>Stop</button>}
        {props.runningAll && <span role="status" className="text-xs">Running every collection…</span>}
        <span className="ml-auto flex flex-wrap items-center gap-2">
          <NewCollection onCreate={props.onCreate} />
          <label className={`${small} cursor-pointer`}>
            Open recording…
            <input
              type="file"
              aria-label="Open recording"
              accept=".jsonl,.ndjson,application/x-ndjson,application/jsonl,text/plain"
              className="sr-only"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) props.onOpenRecording(file);
                e.target.value = '';
              }}
            />
          </label>
        </span>
      </div>
      {props.recording && <Recording note={props.recording} />}
      {props.collections.length === 0 && <Note>No collections yet: use Save as test on a History row or a tool’s Result, create one here, or open a recording made with --record. They are kept in the workspace file.</Note>}
      {props.collections.map((c) => <CollectionCard key={c.collection.name} {...c} {...shared} />)}
    </section>
  );
}
