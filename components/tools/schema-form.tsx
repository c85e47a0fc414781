/**
 * The generated form (rjsf): drawn from the prepared form schema, where parts that cannot be drawn
 * are JSON fields. Validation is the caller's (before sending, with "send anyway"), so rjsf's own
 * submit-blocking validation is off; the caller's errors come back in as `extraErrors`.
 */
import Form from '@rjsf/core';
import type { ErrorSchema, RJSFSchema } from '@rjsf/utils';
import { useMemo, type ReactNode } from 'react';
import type { SchemaCheck } from '../../lib/schema/tool-schema.ts';
import { validatorFor } from './rjsf-validator.ts';
import { ToolJsonField, type JsonFieldContext } from './json-field.tsx';

const UI_SCHEMA = { 'ui:submitButtonOptions': { norender: true } };
const FIELDS = { FallbackField: ToolJsonField };

export interface ToolSchemaFormProps {
  check: Extract<SchemaCheck, { ok: true }>;
  data: unknown;
  errors?: Record<string, unknown>;
  context: JsonFieldContext;
  onData(data: unknown): void;
  onSubmit(data: unknown): void;
  children: ReactNode;
}

export function ToolSchemaForm({ check, data, errors, context, onData, onSubmit, children }: ToolSchemaFormProps): ReactNode {
  const validator = useMemo(() => validatorFor(check), [check]);
  return (
    <Form
      className="rjsf"
      schema={check.form as RJSFSchema}
      uiSchema={UI_SCHEMA}
      fields={FIELDS}
      validator={validator}
      formContext={context}
      initialFormData={data}
      extraErrors={errors as ErrorSchema | undefined}
      onChange={(e) => onData(e.formData)}
      onSubmit={(e) => onSubmit(e.formData ?? {})}
      noValidate
      // The browser's own checks (type=url, type=email) would block "send anyway".
      noHtml5Validate
      showErrorList={false}
    >
      {children}
    </Form>
  );
}
