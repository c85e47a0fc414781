/** A resource template's variables, with the server's completions, and the URI they expand to. */
import { useMemo, type FormEvent, type ReactNode } from 'react';
import { expandTemplate, templateVariables } from '../../lib/client/uri-template.ts';
import { CompletionInput, type Suggestions } from '../ui/completion-input.tsx';
import type { TemplateItem } from './list.tsx';
import { Text } from '../ui/text.tsx';
import { Note, primaryButtonClass } from '../ui/ui.tsx';

export interface ResourceTemplateFormProps {
  template: TemplateItem;
  values: Readonly<Record<string, string>>;
  suggestions: Readonly<Record<string, Suggestions | undefined>>;
  canRead: boolean;
  onChange(name: string, value: string): void;
  onQuery?: (name: string, value: string) => void;
  onRead(uri: string): void;
}

export function ResourceTemplateForm({ template, values, suggestions, canRead, onChange, onQuery, onRead }: ResourceTemplateFormProps): ReactNode {
  const parsed = useMemo(() => templateVariables(template.uriTemplate), [template.uriTemplate]);
  const expanded = expandTemplate(template.uriTemplate, values);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (expanded.ok) onRead(expanded.uri);
  };
  if (!parsed.ok) return <Note tone="bad">This URI template cannot be read: <Text>{parsed.error}</Text></Note>;
  return (
    <form onSubmit={submit} aria-label="Resource template" className="space-y-2">
      <p className="break-all font-mono text-xs"><Text>{template.uriTemplate}</Text></p>
      {parsed.variables.map((name) => (
        <CompletionInput
          key={name}
          label={name}
          value={values[name] ?? ''}
          suggestions={suggestions[name]}
          onChange={(v) => onChange(name, v)}
          onQuery={onQuery ? (v) => onQuery(name, v) : undefined}
        />
      ))}
      <p className="break-all text-xs text-zinc-600 dark:text-zinc-300">
        URI: <output className="font-mono"><Text>{expanded.ok ? expanded.uri : expanded.error}</Text></output>
      </p>
      <button type="submit" className={primaryButtonClass} disabled={!canRead || !expanded.ok}>Read resource</button>
    </form>
  );
}
