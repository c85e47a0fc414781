/**
 * `Save as test` (issue 27): a small dialog that keeps a call in a collection, with the assertions
 * proposed from its actual answer as checkboxes (all checked). The collection is typed or chosen
 * among the workspace's (a new name makes a new one); the call is named.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { Assertion } from '../../lib/collections/schema.ts';
import { Modal } from '../shell/modal.tsx';
import { Text } from '../ui/text.tsx';
import { buttonClass, inputClass, labelClass, primaryButtonClass } from '../ui/ui.tsx';
import { assertionWords } from './words.ts';

export interface SaveTestDialogProps {
  /** What is saved, in words: `tools/call echo`. */
  what: string;
  collections: readonly string[];
  defaultCollection: string;
  defaultName: string;
  proposed: readonly Assertion[];
  /** Keep the call; returns why not (a name taken, no socket). */
  onSave(collection: string, name: string, assertions: Assertion[]): string | undefined;
  onClose(): void;
}

export function SaveTestDialog({ what, collections, defaultCollection, defaultName, proposed, onSave, onClose }: SaveTestDialogProps): ReactNode {
  const id = useId();
  const [collection, setCollection] = useState(defaultCollection);
  const [name, setName] = useState(defaultName);
  const [chosen, setChosen] = useState<readonly boolean[]>(() => proposed.map(() => true));
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const why = onSave(collection.trim(), name.trim(), proposed.filter((_, i) => chosen[i]));
    if (why) setError(why);
  };
  return (
    <Modal label="Save as test" onClose={onClose}>
      <form onSubmit={submit} className="space-y-3 p-4">
        <h2 className="text-base font-semibold">Save as test</h2>
        <p className="break-all font-mono text-xs text-zinc-600 dark:text-zinc-300"><Text>{what}</Text></p>
        <div className="grid gap-2 sm:grid-cols-2">
          <div>
            <label htmlFor={`${id}-collection`} className={labelClass}>Collection</label>
            <input id={`${id}-collection`} list={`${id}-collections`} className={`${inputClass} text-sm`} value={collection} autoFocus onChange={(e) => setCollection(e.target.value)} />
            <datalist id={`${id}-collections`}>{collections.map((c) => <option key={c} value={c} />)}</datalist>
          </div>
          <div>
            <label htmlFor={`${id}-name`} className={labelClass}>Call name</label>
            <input id={`${id}-name`} className={`${inputClass} text-sm`} value={name} onChange={(e) => setName(e.target.value)} />
          </div>
        </div>
        <fieldset className="space-y-1">
          <legend className={labelClass}>Assertions proposed from the answer</legend>
          {proposed.length === 0 && <p className="text-xs text-zinc-500 dark:text-zinc-400">None to propose: the call passes when it is answered (add assertions in the Tests tab).</p>}
          <div className="max-h-64 space-y-0.5 overflow-auto">
            {proposed.map((a, i) => (
              <label key={i} className="flex items-start gap-2 text-xs">
                <input type="checkbox" className="mt-0.5" checked={chosen[i]} onChange={(e) => setChosen(chosen.map((c, j) => (j === i ? e.target.checked : c)))} />
                <span className="break-all"><Text>{assertionWords(a)}</Text></span>
              </label>
            ))}
          </div>
        </fieldset>
        {error && <p role="alert" className="text-xs text-red-700 dark:text-red-300"><Text>{error}</Text></p>}
        <div className="flex justify-end gap-2">
          <button type="button" className={buttonClass} onClick={onClose}>Cancel</button>
          <button type="submit" className={primaryButtonClass}>Save</button>
        </div>
      </form>
    </Modal>
  );
}
