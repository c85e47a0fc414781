/**
 * An elicitation's form mode: rjsf drawn from the server's `requestedSchema`. Its own file so that
 * rjsf and Ajv load with the first form asked for, not with the page (issue 23).
 */
import Form from '@rjsf/core';
import { useMemo, useState, type ReactNode } from 'react';
import { elicitContent, type ElicitAction, type ElicitationView } from '../../lib/client/elicitation.ts';
import { checkInputSchema } from '../../lib/schema/tool-schema.ts';
import { validatorFor } from '../tools/rjsf-validator.ts';
import { Text } from '../ui/text.tsx';
import { Note, primaryButtonClass } from '../ui/ui.tsx';

export interface ElicitationFormProps {
  view: Extract<ElicitationView, { mode: 'form' }>;
  busy: boolean;
  onAnswer(action: ElicitAction, content?: Record<string, unknown>): void;
  /** Decline and Cancel, drawn by the caller beside Accept. */
  refuse: ReactNode;
}

export function ElicitationForm({ view, busy, onAnswer, refuse }: ElicitationFormProps): ReactNode {
  const check = useMemo(() => checkInputSchema(view.schema, 'requestedSchema'), [view.schema]);
  const [data, setData] = useState<unknown>(undefined);
  if (!check.ok) {
    return (
      <div className="space-y-2">
        <Note tone="bad">The requested schema cannot be used: <Text>{check.reason}</Text></Note>
        <div className="flex flex-wrap gap-2">{refuse}</div>
      </div>
    );
  }
  return (
    <Form
      className="rjsf"
      schema={view.schema}
      uiSchema={view.uiSchema}
      validator={validatorFor(check)}
      formData={data}
      onChange={(e) => setData(e.formData)}
      onSubmit={(e) => onAnswer('accept', elicitContent(e.formData, view.schema))}
      onError={() => undefined}
      // A refused answer: focus (and so the view) goes to the first field in error, not the top of the form (issue 26).
      focusOnFirstError={(error) => {
        const id = ['root', ...(error.property ?? '').replace(/^\./, '').split('.').filter(Boolean)].join('_');
        const field = document.getElementById(id) ?? document.querySelector<HTMLElement>(`[id^="${CSS.escape(id)}"]`);
        field?.focus();
        field?.scrollIntoView({ block: 'center' });
      }}
      noHtml5Validate
      showErrorList={false}
    >
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="submit" className={primaryButtonClass} disabled={busy}>Accept</button>
        {refuse}
      </div>
    </Form>
  );
}
