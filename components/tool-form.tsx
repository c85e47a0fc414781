/**
 * The selected tool's arguments: a form generated from its inputSchema (rjsf), or a JSON editor.
 * A tool with an unusable schema can still be run from the JSON editor.
 */
import Form from '@rjsf/core';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { validateArguments, validatorFor, type ToolEntry } from '../lib/tool-schema.ts';
import { Pre, Text } from './text.tsx';
import { HintBadges } from './tool-list.tsx';
import { buttonClass, inputClass, Note, primaryButtonClass } from './ui.tsx';

export interface ToolFormProps {
  tool: ToolEntry;
  canRun: boolean;
  /** Why running is not possible now (shown next to the button). */
  cannotRunReason?: string;
  running: boolean;
  onRun(args: unknown): void;
  onCancel(): void;
}

const UI_SCHEMA = { 'ui:submitButtonOptions': { norender: true } };

function RunButtons({ canRun, running, cannotRunReason, onCancel }: Pick<ToolFormProps, 'canRun' | 'running' | 'cannotRunReason' | 'onCancel'>): ReactNode {
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2">
      <button type="submit" className={primaryButtonClass} disabled={!canRun}>Run tool</button>
      {running && <button type="button" className={buttonClass} onClick={onCancel}>Cancel call</button>}
      {!canRun && cannotRunReason && <span className="text-xs text-zinc-500 dark:text-zinc-400">{cannotRunReason}</span>}
    </div>
  );
}

function JsonEditor(props: ToolFormProps & { text: string; onText(text: string): void }): ReactNode {
  const id = useId();
  const [error, setError] = useState<string>();
  let warnings: string[] = [];
  try {
    warnings = validateArguments(props.tool.check, JSON.parse(props.text));
  } catch {
    warnings = [];
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    try {
      props.onRun(JSON.parse(props.text));
    } catch (e) {
      setError(`Not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-zinc-600 dark:text-zinc-300">Tool input (JSON)</label>
      <textarea id={id} rows={10} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={props.text} onChange={(e) => { props.onText(e.target.value); setError(undefined); }} />
      <div aria-live="polite" className="text-xs">
        {error && <p className="text-red-700 dark:text-red-300">{error}</p>}
        {!error && warnings.length > 0 && (
          <div className="text-amber-800 dark:text-amber-300">
            <p>Does not match the schema (it will be sent anyway):</p>
            <ul className="list-inside list-disc">{warnings.map((w, i) => <li key={i}><Text>{w}</Text></li>)}</ul>
          </div>
        )}
      </div>
      <RunButtons {...props} />
    </form>
  );
}

function SchemaForm(props: ToolFormProps & { data: unknown; onData(data: unknown): void }): ReactNode {
  const check = props.tool.check;
  if (!check.ok) return null;
  const empty = Object.keys((check.schema.properties as object | undefined) ?? {}).length === 0;
  return (
    <Form
      className="rjsf"
      schema={check.schema}
      uiSchema={UI_SCHEMA}
      validator={validatorFor(check)}
      initialFormData={props.data}
      onChange={(e) => props.onData(e.formData)}
      onSubmit={(e) => props.onRun(e.formData ?? {})}
      // The errors are shown on the fields; without a handler rjsf also logs them to the console.
      onError={() => undefined}
      noHtml5Validate
      showErrorList={false}
    >
      {empty && <Note>This tool takes no arguments.</Note>}
      <RunButtons {...props} />
    </Form>
  );
}

function ToolHeader({ tool, json, onJson }: { tool: ToolEntry; json: boolean; onJson(on: boolean): void }): ReactNode {
  return (
    <>
      <div className="mb-2 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="font-mono text-base font-semibold"><Text>{tool.name}</Text></h2>
          {tool.title !== undefined && <p className="text-sm text-zinc-600 dark:text-zinc-300"><Text>{tool.title}</Text></p>}
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" role="switch" aria-checked={json} checked={json} disabled={!tool.check.ok} onChange={(e) => onJson(e.target.checked)} className="size-4 accent-sky-600" />
          Edit as JSON
        </label>
      </div>
      {tool.description !== undefined && <Pre mono={false} className="mb-2 text-sm text-zinc-700 dark:text-zinc-300">{tool.description}</Pre>}
      <div className="mb-3"><HintBadges hints={tool.hints} broken={tool.check.ok ? undefined : tool.check.reason} /></div>
      {!tool.check.ok && (
        <p className="mb-2 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-200">
          Invalid schema: <Text>{tool.check.reason}</Text>. Write the arguments as JSON.
        </p>
      )}
    </>
  );
}

export function ToolForm(props: ToolFormProps): ReactNode {
  const { tool } = props;
  const [json, setJson] = useState(!tool.check.ok);
  const [data, setData] = useState<unknown>(undefined);
  const [text, setText] = useState('{}');
  const [switchError, setSwitchError] = useState<string>();
  // Bumped when the JSON editor hands data back, so the (uncontrolled) form starts from it.
  const [epoch, setEpoch] = useState(0);
  const toggle = (on: boolean) => {
    if (on) {
      setText(JSON.stringify(data ?? {}, null, 2));
      setJson(true);
      return;
    }
    try {
      setData(JSON.parse(text));
      setEpoch((n) => n + 1);
      setJson(false);
      setSwitchError(undefined);
    } catch {
      setSwitchError('Fix the JSON before going back to the form');
    }
  };
  return (
    <div>
      <ToolHeader tool={tool} json={json} onJson={toggle} />
      {switchError && <p className="mb-2 text-sm text-red-700 dark:text-red-300">{switchError}</p>}
      {json ? <JsonEditor {...props} text={text} onText={setText} /> : <SchemaForm key={epoch} {...props} data={data} onData={setData} />}
    </div>
  );
}
