/**
 * rjsf's FallbackField, replaced: a part of a schema the form cannot draw (a tuple, several types,
 * a reference it cannot follow, any value at all) is edited as JSON, with the reason beside it.
 * The rest of the form stays a form.
 */
import type { FieldProps } from '@rjsf/utils';
import { useState, type ReactNode } from 'react';
import { fallbackReason, fromEditorText, toEditorText } from '../../lib/schema/form.ts';
import { Text } from '../ui/text.tsx';

/** Shared through rjsf's formContext: the JSON fields whose text does not parse (the form must not send). */
export interface JsonFieldContext {
  invalidJson: Map<string, string>;
  onInvalidChange(): void;
}

export function ToolJsonField(props: FieldProps): ReactNode {
  const { schema, formData, onChange, fieldPathId, disabled, readonly, registry, name } = props;
  const id = fieldPathId.$id;
  const context = registry.formContext as JsonFieldContext | undefined;
  const [text, setText] = useState(() => toEditorText(formData));
  const [error, setError] = useState<string>();
  const change = (next: string) => {
    setText(next);
    const parsed = fromEditorText(next);
    setError(parsed.ok ? undefined : parsed.error);
    if (parsed.ok) {
      context?.invalidJson.delete(id);
      onChange(parsed.value, fieldPathId.path);
    } else {
      context?.invalidJson.set(id, typeof schema.title === 'string' ? schema.title : name || 'the arguments');
    }
    context?.onInvalidChange();
  };
  return (
    <div className="space-y-1">
      <textarea
        id={id}
        rows={Math.min(12, Math.max(3, text.split('\n').length))}
        spellCheck={false}
        disabled={disabled || readonly}
        value={text}
        placeholder="JSON value"
        aria-describedby={`${id}__json_reason`}
        aria-invalid={error !== undefined}
        onChange={(e) => change(e.target.value)}
        className="form-control font-mono text-xs"
      />
      <p id={`${id}__json_reason`} className="text-xs text-amber-800 dark:text-amber-300">
        Edited as JSON: <Text>{fallbackReason(schema)}</Text>
      </p>
      {error !== undefined && <p role="alert" className="text-xs text-red-700 dark:text-red-300">Not valid JSON: <Text>{error}</Text></p>}
    </div>
  );
}
