/**
 * `Save workspace` (issue 9, item 4): the file to write — the --config file or the one saved to
 * before, or a name the user types — and what came of it. A file changed on disk since Loupe read
 * it is only replaced after the user says so here (no window.confirm: it blocks the page).
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Text } from '../ui/text.tsx';
import { buttonClass, inputClass, labelClass, Panel, primaryButtonClass } from '../ui/ui.tsx';

export type SaveState =
  | { phase: 'idle' }
  | { phase: 'saving' }
  | { phase: 'saved'; path: string }
  | { phase: 'conflict'; path: string; reason: string }
  | { phase: 'failed'; error: string };

export interface WorkspaceSaveProps {
  /** The file the workspace came from or was saved to (absent: never saved). */
  currentPath?: string;
  state: SaveState;
  canSave: boolean;
  /** `path` undefined: the current file. */
  onSave(path: string | undefined, overwrite: boolean): void;
  onClose(): void;
}

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

function Outcome({ state, onOverwrite, onKeep }: { state: SaveState; onOverwrite(): void; onKeep(): void }): ReactNode {
  switch (state.phase) {
    case 'saving':
      return <p role="status" className="text-xs text-zinc-600 dark:text-zinc-300">Saving…</p>;
    case 'saved':
      return <p role="status" className="text-xs text-emerald-800 dark:text-emerald-300">Saved to <Text className="font-mono">{state.path}</Text></p>;
    case 'failed':
      return <p role="alert" className="text-xs text-red-700 dark:text-red-300">Not saved: <Text>{state.error}</Text></p>;
    case 'conflict':
      return (
        <div role="alert" className="space-y-1 rounded border border-amber-300 bg-amber-50 p-2 text-xs text-amber-900 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-200">
          <p>The file changed on disk since Loupe read it: overwrite? <Text className="font-mono">{state.path}</Text></p>
          <p><Text>{state.reason}</Text></p>
          <div className="flex gap-2">
            <button type="button" className={small} onClick={onOverwrite}>Overwrite</button>
            <button type="button" className={small} onClick={onKeep}>Keep the file on disk</button>
          </div>
        </div>
      );
    default:
      return null;
  }
}

export function WorkspaceSave(props: WorkspaceSaveProps): ReactNode {
  const id = useId();
  const [name, setName] = useState(props.currentPath ?? '');
  const wanted = name.trim();
  // The current file goes without a path: the proxy then checks it against what it read.
  const path = wanted === '' || wanted === props.currentPath ? undefined : wanted;
  const canSubmit = props.canSave && props.state.phase !== 'saving' && (path !== undefined || props.currentPath !== undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSubmit) props.onSave(path, false);
  };
  return (
    <Panel label="Save workspace" title="Save workspace" actions={<button type="button" className={small} onClick={props.onClose}>Close</button>}>
      <form onSubmit={submit} className="space-y-2" noValidate>
        <div>
          <label htmlFor={id} className={labelClass}>Workspace file</label>
          <input id={id} className={`${inputClass} font-mono text-xs`} value={name} placeholder="mcp.json" spellCheck={false} onChange={(e) => setName(e.target.value)} />
          <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">mcp.json form; secrets are written as references, never values. A relative name is resolved against the folder Loupe was started in.</p>
        </div>
        <button type="submit" className={primaryButtonClass} disabled={!canSubmit}>Save to file</button>
        <Outcome state={props.state} onOverwrite={() => props.onSave(path, true)} onKeep={props.onClose} />
      </form>
    </Panel>
  );
}
