/**
 * The `${input:ID}` values a workspace's servers wait for (VS Code's `inputs`): asked once, held
 * in the proxy's memory only, never written anywhere (issue 9). Password inputs are masked.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { inputClass, labelClass, Panel, primaryButtonClass } from '../ui/ui.tsx';
import { Text } from '../ui/text.tsx';

export interface InputRequest {
  id: string;
  description?: string;
  password?: boolean;
}

export function InputsForm({ inputs, canSend, onProvide }: { inputs: readonly InputRequest[]; canSend: boolean; onProvide(values: Record<string, string>): void }): ReactNode {
  const id = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  if (inputs.length === 0) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onProvide(Object.fromEntries(inputs.map((input) => [input.id, values[input.id] ?? ''])));
  };
  return (
    <Panel label="Inputs needed" title="Inputs needed">
      <form onSubmit={submit} className="space-y-2">
        <p className="text-xs text-zinc-600 dark:text-zinc-300">Some servers wait for these values. Loupe keeps them in memory only.</p>
        {inputs.map((input, i) => (
          <div key={input.id}>
            <label htmlFor={`${id}-${i}`} className={labelClass}><Text>{input.description ?? input.id}</Text></label>
            <input
              id={`${id}-${i}`}
              type={input.password ? 'password' : 'text'}
              autoComplete="off"
              className={inputClass}
              value={values[input.id] ?? ''}
              onChange={(e) => setValues((all) => ({ ...all, [input.id]: e.target.value }))}
            />
          </div>
        ))}
        <button type="submit" className={primaryButtonClass} disabled={!canSend}>Provide inputs</button>
      </form>
    </Panel>
  );
}
