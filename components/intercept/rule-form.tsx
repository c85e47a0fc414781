/**
 * The form of one interception rule (issue 13): what it matches (direction, kind, method, name,
 * text, argument, server) and what it does (the action and that action's own fields). It edits a
 * RuleDraft (app/rule-form.ts); what is wrong with a field is said next to it, and `Save rule`
 * hands the checked rule up.
 */
import { useId, useState, type ReactNode } from 'react';
import { ACTION_FIELDS, ACTION_LABELS, checkDraft, DIRECTION_LABELS, KIND_LABELS, type RuleDraft, type RuleField } from './rule-form-model.ts';
import type { Rule, RuleActionType } from '../../lib/model/rules.ts';
import { buttonClass, inputClass, labelClass, Note, primaryButtonClass } from '../ui/ui.tsx';

export interface RuleFormProps {
  /** The draft to start from (a rule being edited, or an empty one). */
  initial: RuleDraft;
  id: string;
  /** The names of the servers a rule can be limited to. */
  servers: readonly string[];
  canSave: boolean;
  onSave(rule: Rule): void;
  onCancel(): void;
}

const FIELD_LABELS: Record<RuleField, string> = {
  name: 'Rule name',
  method: 'Method',
  toolName: 'Name (tool / prompt / resource)',
  text: 'Text contains',
  argPath: 'Argument path',
  argPattern: 'Argument pattern',
  ms: 'Milliseconds',
  result: 'Result (JSON)',
  code: 'Error code',
  message: 'Message',
  bytes: 'Bytes kept',
  after: 'After N frames',
};

const HINTS: Partial<Record<RuleField, string>> = {
  name: 'Optional: shown in the trace. Empty: the rule’s description.',
  method: 'e.g. tools/call, or tools/* for every tools method. Empty: any method. A response matches by its request’s method.',
  toolName: 'The tool of tools/call, the prompt of prompts/get, the URI of resources/read; * is a wildcard.',
  text: 'Part of the frame’s exact text.',
  argPath: 'Gates on tools/call: the argument at this dotted path (e.g. path, or options.mode)…',
  argPattern: '…matches this regular expression (e.g. ^/etc/).',
  bytes: 'Empty: half of the frame.',
  after: 'The Nth matching frame goes on, then it happens. Empty: the first.',
};

function messageLabel(action: RuleActionType): string {
  return action === 'deny' ? 'Refusal text' : 'Error message';
}

function messageHint(action: RuleActionType): string {
  return action === 'deny' ? 'Empty: Loupe’s words, which name the gate and tell the model not to retry as is.' : 'Empty: Loupe’s words.';
}

interface TextFieldProps {
  /** The form's `useId`, which the field's ids start with. */
  base: string;
  field: RuleField;
  value: string;
  error?: string;
  multiline?: boolean;
  label?: string;
  hint?: string;
  onChange(value: string): void;
}

/** One text field of the draft, with its hint and what is wrong with it said below it. */
function TextField({ base, field, value, error, multiline, label, hint: givenHint, onChange }: TextFieldProps): ReactNode {
  const fid = `${base}-${field}`;
  const hint = givenHint ?? HINTS[field];
  const describedBy = [hint ? `${fid}-hint` : '', error ? `${fid}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id: fid,
    value,
    'aria-invalid': error !== undefined,
    'aria-describedby': describedBy,
    className: `${inputClass} ${multiline || field === 'method' || field === 'argPattern' ? 'font-mono text-xs' : ''}`,
    spellCheck: false,
  };
  return (
    <div>
      <label htmlFor={fid} className={labelClass}>{label ?? FIELD_LABELS[field]}</label>
      {multiline ? <textarea rows={4} {...common} onChange={(e) => onChange(e.target.value)} /> : <input type="text" {...common} onChange={(e) => onChange(e.target.value)} />}
      {hint && <p id={`${fid}-hint`} className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">{hint}</p>}
      {error && <p id={`${fid}-error`} className="mt-0.5 text-xs text-red-700 dark:text-red-300">{error}</p>}
    </div>
  );
}

/** A choice among `options` (value → words), its id made from the form's `base` and its label. */
function SelectField<T extends string>({ base, label, value, options, onChange }: { base: string; label: string; value: T; options: Record<T, string>; onChange(value: T): void }): ReactNode {
  return (
    <div>
      <label htmlFor={`${base}-${label}`} className={labelClass}>{label}</label>
      <select id={`${base}-${label}`} className={inputClass} value={value} onChange={(e) => onChange(e.target.value as T)}>
        {(Object.keys(options) as T[]).map((key) => <option key={key} value={key}>{options[key]}</option>)}
      </select>
    </div>
  );
}

export function RuleForm({ initial, id, servers, canSave, onSave, onCancel }: RuleFormProps): ReactNode {
  const base = useId();
  const [draft, setDraft] = useState<RuleDraft>(initial);
  const [errors, setErrors] = useState<Partial<Record<RuleField, string>>>({});
  const [general, setGeneral] = useState<string>();
  const set = (patch: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const save = () => {
    const checked = checkDraft(draft, id);
    if (checked.ok) {
      setErrors({});
      setGeneral(undefined);
      onSave(checked.rule);
    } else {
      setErrors(checked.errors);
      setGeneral(checked.general ?? 'The rule was not saved: see the fields marked below.');
    }
  };
  const text = (field: RuleField, options: { multiline?: boolean; label?: string; hint?: string } = {}) => (
    <TextField key={field} base={base} field={field} value={draft[field]} error={errors[field]} {...options} onChange={(value) => set({ [field]: value })} />
  );
  const select = <T extends string>(label: string, value: T, options: Record<T, string>, onChange: (value: T) => void) => (
    <SelectField base={base} label={label} value={value} options={options} onChange={onChange} />
  );
  const serverOptions: Record<string, string> = { '': 'Any server', ...Object.fromEntries(servers.map((name) => [name, name])) };
  if (draft.server !== '' && !(draft.server in serverOptions)) serverOptions[draft.server] = `${draft.server} (not in the workspace now)`;
  return (
    <form
      aria-label="Rule"
      className="space-y-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-700"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        {text('name')}
        <label className="flex items-center gap-2 self-end text-sm">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          Enabled
        </label>
      </div>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-1 text-xs font-semibold text-zinc-700 dark:text-zinc-200">Which frames</legend>
        {select('Direction', draft.direction, DIRECTION_LABELS, (direction) => set({ direction }))}
        {select('Kind', draft.kind, KIND_LABELS, (kind) => set({ kind }))}
        {text('method')}
        {text('toolName')}
        {text('text')}
        {select('Server', draft.server, serverOptions, (server) => set({ server }))}
        {text('argPath')}
        {text('argPattern')}
      </fieldset>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-1 text-xs font-semibold text-zinc-700 dark:text-zinc-200">What happens</legend>
        {select('Action', draft.action, ACTION_LABELS, (action) => set({ action }))}
        {ACTION_FIELDS[draft.action].map((field) =>
          field === 'message' ? text('message', { label: messageLabel(draft.action), hint: messageHint(draft.action) }) : text(field, { multiline: field === 'result' }),
        )}
      </fieldset>
      {general && <Note tone="bad">{general}</Note>}
      <div className="flex gap-2">
        <button type="submit" className={primaryButtonClass} disabled={!canSave}>Save rule</button>
        <button type="button" className={buttonClass} onClick={onCancel}>Cancel rule</button>
      </div>
    </form>
  );
}
