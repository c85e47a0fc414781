/**
 * The selected tool's arguments: a form generated from its inputSchema (parts it cannot draw are
 * JSON fields), or the whole input as JSON. Arguments are validated before sending; when they do
 * not match, the problems are shown and "Send anyway" sends them as they are (an inspector must be
 * able to send what a buggy client would). A tool with an unusable schema runs from the JSON editor.
 */
import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { focusInvalid, useFocusFirstField } from './focus.ts';
import { synthArguments } from '../../lib/schema/synth.ts';
import { errorSchemaOf, type ToolEntry } from '../../lib/schema/tool-schema.ts';
import { ErrorBoundary } from '../ui/error-boundary.tsx';
import { SaveCall } from './save-call.tsx';
import { Text } from '../ui/text.tsx';
import { useArguments, useSendGuard, type Pending } from './form-state.ts';
import { ToolHeader } from './header.tsx';
import { ToolRunSettings, type RunSettingsValue } from './run-settings.tsx';
import { buttonClass, inputClass, Note, primaryButtonClass } from '../ui/ui.tsx';

/**
 * The generated form, with rjsf and its validator, is loaded with the first form drawn: the first
 * screen does not need them, and they were a third of the page's JavaScript (issue 23).
 */
const ToolSchemaForm = lazy(() => import('./schema-form.tsx').then((m) => ({ default: m.ToolSchemaForm })));

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
  /** Keep the call the form would make now under `name` (issue 9, saved calls); returns why not. */
  onSaveCall?(args: unknown, name: string): string | undefined;
  /** What is typed in the form now (issue 25): kept so that a re-list with a changed schema, or coming back to the tool, starts from it. */
  onDraft?(data: unknown): void;
  /** Set when the person just chose this tool: its first field takes the focus (issue 26), then `onFocused`. */
  focusToken?: number;
  onFocused?(): void;
}

function RunBar(props: Pick<ToolFormProps, 'canRun' | 'cannotRunReason' | 'remembered' | 'onReset'> & { onResetForm(): void; onFillExample(): void; saveCall?: ReactNode }): ReactNode {
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2">
      <button type="submit" className={primaryButtonClass} disabled={!props.canRun}>Run tool</button>
      {props.saveCall}
      <button type="button" className={buttonClass} onClick={props.onFillExample} title="Arguments made from the schema: its defaults, examples and enum members, or the smallest valid values (as mcp-loupe --smoke makes them)">Fill example</button>
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
function takesNoArguments(form: object): boolean {
  const schema = form as Record<string, unknown>;
  const properties = schema.properties;
  const some = (key: string) => schema[key] !== undefined && schema[key] !== false;
  return (properties == null || typeof properties !== 'object' || Object.keys(properties).length === 0) && !['oneOf', 'anyOf', 'allOf', '$ref', 'additionalProperties', 'patternProperties', 'x-loupe-json', 'if'].some(some);
}

export function ToolForm(props: ToolFormProps): ReactNode {
  const { tool } = props;
  const check = tool.check;
  const args = useArguments(props.initialArgs, !check.ok);
  const onDraft = props.onDraft;
  useEffect(() => {
    if (!args.json) onDraft?.(args.data);
  }, [args.data, args.json, onDraft]);
  const guard = useSendGuard(check, props.onRun);
  const root = useRef<HTMLDivElement>(null);
  useFocusFirstField(root, props.focusToken, props.onFocused);
  // A refused form: focus goes to the first field it names (or the JSON editor), in view.
  useEffect(() => {
    if (guard.pending) focusInvalid(root.current, guard.pending.issues.map((issue) => issue.path));
  }, [guard.pending]);
  const resetForm = () => {
    guard.dismiss();
    guard.context.invalidJson.clear();
    args.reset();
  };
  // The arguments Run would send now: the form's data, or the JSON editor's text parsed.
  const saveCall = (name: string): string | undefined => {
    if (!props.onSaveCall) return undefined;
    if (!args.json && check.ok) return props.onSaveCall(args.data, name);
    try {
      return props.onSaveCall(JSON.parse(args.text), name);
    } catch {
      return 'Fix the JSON before saving the call';
    }
  };
  const [fillNote, setFillNote] = useState<string>();
  // The arguments --smoke would send (lib/schema/synth.ts), so what the CLI tries can be tried here.
  const fillExample = () => {
    guard.dismiss();
    const made = synthArguments(tool.inputSchema, check);
    if (made.ok) args.fill(made.args);
    else if (made.args) args.fill(made.args);
    setFillNote(made.ok ? undefined : made.reason);
  };
  const saver = props.onSaveCall && <SaveCall defaultName={tool.name} canSave onSave={saveCall} />;
  const bar = <RunBar {...props} onResetForm={() => { setFillNote(undefined); resetForm(); }} onFillExample={fillExample} saveCall={saver} />;
  const errors = guard.pending && !args.json ? errorSchemaOf(guard.pending.issues) : undefined;
  return (
    <div ref={root}>
      <ToolHeader tool={tool} json={args.json} onJson={(on) => { guard.dismiss(); args.toggle(on); }} />
      {args.switchError && <p className="mb-2 text-sm text-red-700 dark:text-red-300">{args.switchError}</p>}
      {args.json || !check.ok ? (
        <JsonEditor key={args.epoch} text={args.text} onText={(t) => { args.setText(t); guard.dismiss(); }} onSubmit={(value) => guard.attempt(value, false)}>{bar}</JsonEditor>
      ) : (
        <ErrorBoundary key={args.epoch} fallback={(error) => <Note tone="bad">The form could not be drawn from this schema (<Text>{error.message}</Text>): use Edit as JSON.</Note>}>
          <Suspense fallback={<p className="text-sm text-zinc-500 dark:text-zinc-400">Loading the form…</p>}>
            <ToolSchemaForm check={check} data={args.data} errors={errors} context={guard.context} onData={(d) => { args.setData(d); guard.dismiss(); }} onSubmit={(value) => guard.attempt(value, true)}>
              {takesNoArguments(check.form) && <Note>This tool takes no arguments.</Note>}
              {bar}
            </ToolSchemaForm>
          </Suspense>
        </ErrorBoundary>
      )}
      {fillNote && <p role="status" className="mt-2 text-sm text-amber-800 dark:text-amber-200"><Text>{fillNote}</Text></p>}
      {guard.blocked && <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300"><Text>{guard.blocked}</Text></p>}
      {guard.pending && <Mismatch pending={guard.pending} onSend={guard.sendAnyway} onDismiss={guard.dismiss} />}
      <div className="mt-3"><ToolRunSettings value={props.settings} onChange={props.onSettings} /></div>
    </div>
  );
}
