/**
 * `Save call` (issue 9, item 6): names the call the form would make now and keeps it in the
 * server's saved calls. It sits inside the tool's form, so it is no <form> of its own (forms do
 * not nest) and Enter in its name box saves rather than submitting (running) the tool.
 */
import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Text } from '../ui/text.tsx';
import { buttonClass, inputClass } from '../ui/ui.tsx';

export interface SaveCallProps {
  defaultName: string;
  canSave: boolean;
  /** Keep the call under this name; returns why not (a clash, arguments that do not parse). */
  onSave(name: string): string | undefined;
}

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

export function SaveCall({ defaultName, canSave, onSave }: SaveCallProps): ReactNode {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(defaultName);
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const save = () => {
    const wanted = name.trim();
    const error = wanted === '' ? 'Give the call a name' : onSave(wanted);
    setMessage(error ? { ok: false, text: error } : { ok: true, text: `Saved as ${wanted} (Saved calls tab)` });
    if (!error) setOpen(false);
  };
  const keys = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') setOpen(false);
  };
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button type="button" className={buttonClass} disabled={!canSave} aria-expanded={open} onClick={() => { setOpen(!open); setMessage(undefined); }}>Save call</button>
      {open && (
        <span role="group" aria-label="Save call" className="inline-flex flex-wrap items-center gap-1">
          <label htmlFor={id} className="text-xs">Call name</label>
          <input id={id} className={`${inputClass} !w-48 !py-0.5 text-xs`} value={name} autoFocus onChange={(e) => setName(e.target.value)} onKeyDown={keys} />
          <button type="button" className={small} onClick={save}>Add to saved calls</button>
          <button type="button" className={small} onClick={() => setOpen(false)}>Cancel saving</button>
        </span>
      )}
      {message && <span role={message.ok ? 'status' : 'alert'} className={`text-xs ${message.ok ? 'text-emerald-800 dark:text-emerald-300' : 'text-red-700 dark:text-red-300'}`}><Text>{message.text}</Text></span>}
    </span>
  );
}
