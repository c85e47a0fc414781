/**
 * The values a registry entry declares (issue 25, item 4): one field per argument, variable,
 * environment variable or header, named by what it fills. `choices` are a select, `isSecret` a
 * masked input, `isRepeated` one value a line, `default` prefilled, `description` the help text.
 * Every string comes from the file: rendered as text only.
 */
import { useId, type ReactNode } from 'react';
import type { RegistryField } from '../../lib/registry/launch.ts';
import { Text } from '../ui/text.tsx';
import { inputClass, labelClass } from '../ui/ui.tsx';

export function RegistryForm({ fields, values, onChange }: { fields: readonly RegistryField[]; values: Record<string, string>; onChange(key: string, value: string): void }): ReactNode {
  const id = useId();
  if (fields.length === 0) return <p className="text-xs text-zinc-500 dark:text-zinc-400">Nothing to fill for this choice.</p>;
  return (
    <fieldset className="space-y-2">
      <legend className="text-xs font-medium text-zinc-700 dark:text-zinc-300">Values the entry declares</legend>
      {fields.map((f, i) => {
        const fieldId = `${id}-${i}`;
        const help = f.description !== undefined ? `${fieldId}-help` : undefined;
        const value = values[f.key] ?? f.default ?? '';
        const name = `${f.label} (${f.kind})`;
        return (
          <div key={f.key}>
            <label htmlFor={fieldId} className={labelClass}>
              <Text className="font-mono">{f.label}</Text> <span className="font-normal text-zinc-500 dark:text-zinc-400">{f.kind}{f.required ? ', required' : ''}{f.secret ? ', secret' : ''}{f.repeated ? ', one value a line' : ''}</span>
            </label>
            {f.choices ? (
              <select id={fieldId} aria-label={name} aria-describedby={help} className={inputClass} value={value} onChange={(e) => onChange(f.key, e.target.value)}>
                {!f.required && <option value="">(none)</option>}
                {f.choices.map((c) => <option key={c} value={c}>{c}</option>)}
              </select>
            ) : f.repeated ? (
              <textarea id={fieldId} aria-label={name} aria-describedby={help} rows={2} className={`${inputClass} font-mono text-xs`} value={value} placeholder={f.placeholder} onChange={(e) => onChange(f.key, e.target.value)} />
            ) : (
              <input id={fieldId} aria-label={name} aria-describedby={help} type={f.secret ? 'password' : 'text'} autoComplete="off" spellCheck={false} className={inputClass} value={value} placeholder={f.placeholder} onChange={(e) => onChange(f.key, e.target.value)} />
            )}
            {help && <p id={help} className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400"><Text>{f.description}</Text></p>}
          </div>
        );
      })}
    </fieldset>
  );
}
