/**
 * The selected tool's arguments: a form generated from its inputSchema (parts it cannot draw are
 * JSON fields), or the whole input as JSON. Arguments are validated before sending; when they do
 * not match, the problems are shown and "Send anyway" sends them as they are (an inspector must be
 * able to send what a buggy client would). A tool with an unusable schema runs from the JSON editor.
 */
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { errorSchemaOf, validationIssues, type ToolEntry, type ValidationIssue } from '../lib/tool-schema.ts';
import { ErrorBoundary } from './error-boundary.tsx';
import { Text } from './text.tsx';
import type { JsonFieldContext } from './tool-json-field.tsx';
import { ToolHeader } from './tool-header.tsx';
import { ToolRunSettings, type RunSettingsValue } from './tool-run-settings.tsx';
import { ToolSchemaForm } from './tool-schema-form.tsx';
import { buttonClass, inputClass, Note, primaryButtonClass } from './ui.tsx';

export interface ToolFormProps {
  tool: ToolEntry;
  /** Arguments to start from (the last ones used); undefined = the schema's defaults. */
  initialArgs?: unknown;
  remembered: boolean;
  canRun: boolean;
  /** Why running is not possible now (shown next to the button). */
  cannotRunReason?: string;
  settings: RunSettingsValue;
  onSettings(next: RunSettingsValue): void;
  onRun(args: unknown): void;
  /** Forget the remembered arguments. */
  onReset(): void;
}

interface Pending {
  args: unknown;
  issues: ValidationIssue[];
}

function RunBar(props: Pick<ToolFormProps, 'canRun' | 'cannotRunReason' | 'remembered' | 'onReset'> & { onResetForm(): void }): ReactNode {
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2">
      <button type="submit" className={primaryButtonClass} disabled={!props.canRun}>Run tool</button>
      <button type="button" className={buttonClass} onClick={() => { props.onReset(); props.onResetForm(); }}>Reset to defaults</button>
      {props.remembered && <span className="text-xs text-zinc-500 dark:text-zinc-400">Last arguments used</span>}
      {!props.canRun && props.cannotRunReason && <span className="text-xs text-zinc-500 dark:text-zinc-400">{props.cannotRunReason}</span>}
    </div>
  );
}

function Mismatch({ pending, onSend, onDismiss }: { pending: Pending; onSend(): void; onDismiss(): void }): ReactNode {
  return (
    <div role="alert" aria-label="Arguments do not match the schema" className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-200">
      <p className="font-semibold">The arguments do not match the tool&apos;s inputSchema:</p>
      <ul className="list-inside list-disc text-xs">
        {pending.issues.slice(0, 30).map((issue, i) => <li key={i}><code><Text>{issue.path || '(arguments)'}</Text></code> <Text>{issue.message}</Text></li>)}
      </ul>
      <div className="mt-2 flex gap-2">
        <button type="button" className={buttonClass} onClick={onSend}>Send anyway</button>
        <button type="button" className={buttonClass} onClick={onDismiss}>Keep editing</button>
      </div>
    </div>
  );
}

function JsonEditor({ text, onText, onSubmit, children }: { text: string; onText(t: string): void; onSubmit(value: unknown): void; children: ReactNode }): ReactNode {
  const id = useId();
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    try {
      onSubmit(JSON.parse(text));
    } catch (e) {
      setError(`Not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-zinc-600 dark:text-zinc-300">Tool input (JSON)</label>
      <textarea id={id} rows={10} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={text} onChange={(e) => { onText(e.target.value); setError(undefined); }} />
      {error && <p role="alert" className="text-xs text-red-700 dark:text-red-300">{error}</p>}
      {children}
    </form>
  );
}

/** An object schema with nothing to fill in (no properties, alternatives, references or extra keys). */
function takesNoArguments(schema: Record<string, unknown>): boolean {
  const properties = schema.properties;
  const some = (key: string) => schema[key] !== undefined && schema[key] !== false;
  return (properties == null || typeof properties !== 'object' || Object.keys(properties).length === 0) && !['oneOf', 'anyOf', 'allOf', '$ref', 'additionalProperties', 'patternProperties', 'x-loupe-json', 'if'].some(some);
}

export function ToolForm(props: ToolFormProps): ReactNode {
  const { tool } = props;
  const check = tool.check;
  const [json, setJson] = useState(!check.ok);
  const [data, setData] = useState<unknown>(props.initialArgs);
  const [text, setText] = useState(() => JSON.stringify(props.initialArgs ?? {}, null, 2));
  const [switchError, setSwitchError] = useState<string>();
  const [pending, setPending] = useState<Pending>();
  const [blocked, setBlocked] = useState<string>();
  // Bumped when the form must start over from `data` (JSON editor handed data back, reset).
  const [epoch, setEpoch] = useState(0);
  const [, setInvalidCount] = useState(0);
  const contextRef = useRef<JsonFieldContext>(undefined);
  contextRef.current ??= { invalidJson: new Map(), onInvalidChange: () => setInvalidCount(contextRef.current?.invalidJson.size ?? 0) };
  const context = contextRef.current;

  const attempt = (args: unknown) => {
    if (!json && context.invalidJson.size > 0) {
      setBlocked(`Fix the JSON of ${[...context.invalidJson.values()].join(', ')} first`);
      return;
    }
    setBlocked(undefined);
    const issues = check.ok ? validationIssues(check, args) : [];
    if (issues.length === 0) {
      setPending(undefined);
      props.onRun(args);
    } else setPending({ args, issues });
  };
  const toggle = (on: boolean) => {
    setPending(undefined);
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
  const resetForm = () => {
    setPending(undefined);
    setData(undefined);
    setText('{}');
    context.invalidJson.clear();
    setEpoch((n) => n + 1);
  };
  const bar = <RunBar {...props} onResetForm={resetForm} />;
  const errors = pending && !json ? errorSchemaOf(pending.issues) : undefined;
  return (
    <div>
      <ToolHeader tool={tool} json={json} onJson={toggle} />
      {switchError && <p className="mb-2 text-sm text-red-700 dark:text-red-300">{switchError}</p>}
      {json || !check.ok ? (
        <JsonEditor key={epoch} text={text} onText={(t) => { setText(t); setPending(undefined); }} onSubmit={attempt}>{bar}</JsonEditor>
      ) : (
        <ErrorBoundary key={epoch} fallback={(error) => <Note tone="bad">The form could not be drawn from this schema (<Text>{error.message}</Text>): use Edit as JSON.</Note>}>
          <ToolSchemaForm check={check} data={data} errors={errors} context={context} onData={(d) => { setData(d); setPending(undefined); }} onSubmit={attempt}>
            {takesNoArguments(check.form) && <Note>This tool takes no arguments.</Note>}
            {bar}
          </ToolSchemaForm>
        </ErrorBoundary>
      )}
      {blocked && <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300"><Text>{blocked}</Text></p>}
      {pending && <Mismatch pending={pending} onSend={() => { const args = pending.args; setPending(undefined); props.onRun(args); }} onDismiss={() => setPending(undefined)} />}
      <div className="mt-3"><ToolRunSettings value={props.settings} onChange={props.onSettings} /></div>
    </div>
  );
}
