/** A prompt's arguments (every value a string, spec: PromptArgument), with the server's completions. */
import type { FormEvent, ReactNode } from 'react';
import { CompletionInput, type Suggestions } from '../ui/completion-input.tsx';
import { IconImage, IconNote } from '../ui/icon.tsx';
import type { PromptItem } from './list.tsx';
import { SaveCall } from '../tools/save-call.tsx';
import { Pre, Text } from '../ui/text.tsx';
import { Note, primaryButtonClass } from '../ui/ui.tsx';

export interface PromptFormProps {
  prompt: PromptItem;
  values: Readonly<Record<string, string>>;
  suggestions: Readonly<Record<string, Suggestions | undefined>>;
  canGet: boolean;
  onChange(name: string, value: string): void;
  onQuery?: (name: string, value: string) => void;
  onGet(): void;
  /** Keep this prompts/get, with the values as typed, as a saved call (issue 9); returns why not. */
  onSaveCall?(name: string): string | undefined;
}

export function PromptForm({ prompt, values, suggestions, canGet, onChange, onQuery, onGet, onSaveCall }: PromptFormProps): ReactNode {
  const missing = prompt.arguments.filter((a) => a.required && (values[a.name] ?? '') === '').map((a) => a.name);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onGet();
  };
  return (
    <form onSubmit={submit} aria-label="Prompt arguments" className="space-y-2">
      <div className="flex min-w-0 items-start gap-2">
        <IconImage icons={prompt.icons ?? []} size={24} />
        <div className="min-w-0">
          <h2 className="break-all font-mono text-base font-semibold"><Text>{prompt.name}</Text></h2>
          {prompt.title !== undefined && <p className="break-words text-sm text-zinc-600 dark:text-zinc-300"><Text>{prompt.title}</Text></p>}
          <IconNote icons={prompt.icons ?? []} />
        </div>
      </div>
      {prompt.description !== undefined && <Pre mono={false} className="text-sm text-zinc-700 dark:text-zinc-300">{prompt.description}</Pre>}
      {prompt.arguments.length === 0 && <Note>This prompt takes no arguments.</Note>}
      {prompt.arguments.map((a) => (
        <CompletionInput
          key={a.name}
          label={a.title ?? a.name}
          description={a.description}
          required={a.required}
          value={values[a.name] ?? ''}
          suggestions={suggestions[a.name]}
          onChange={(v) => onChange(a.name, v)}
          onQuery={onQuery ? (v) => onQuery(a.name, v) : undefined}
        />
      ))}
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={primaryButtonClass} disabled={!canGet}>Get prompt</button>
        {onSaveCall && <SaveCall defaultName={prompt.name} canSave onSave={onSaveCall} />}
        {missing.length > 0 && <span className="text-xs text-amber-800 dark:text-amber-300">Required and empty: <Text>{missing.join(', ')}</Text> (it will be sent anyway)</span>}
      </div>
    </form>
  );
}
