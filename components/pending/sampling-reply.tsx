/** The user's answer to a sampling request — typed by hand or suggested by a model — text, image or tool use; or a rejection. */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { applyPreset, buildSamplingResult, DEFAULT_DRAFT, STOP_REASONS, type ReplyKind, type SamplingDraft, type SamplingPreset, type SamplingView } from '../../lib/client/sampling.ts';
import { Text } from '../ui/text.tsx';
import { buttonClass, inputClass, labelClass, primaryButtonClass } from '../ui/ui.tsx';

/** A reply someone else wrote (the model of `Ask model`): put into the editor once per `id`, then the person's to edit. */
export interface Suggestion {
  id: string;
  draft: Partial<SamplingDraft>;
}

export interface SamplingReplyProps {
  view: SamplingView;
  suggestion?: Suggestion;
  presets: readonly SamplingPreset[];
  busy: boolean;
  onSend(result: Record<string, unknown>): void;
  onReject(): void;
  onSavePreset(name: string, draft: SamplingDraft): void;
  onRemovePreset(name: string): void;
}

type Patch = (patch: Partial<SamplingDraft>) => void;

function Field({ id, label, children, className = '' }: { id: string; label: string; children: ReactNode; className?: string }): ReactNode {
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>{label}</label>
      {children}
    </div>
  );
}

function readImage(file: File, set: Patch): void {
  const reader = new FileReader();
  reader.onload = () => set({ imageData: typeof reader.result === 'string' ? reader.result : '', imageMimeType: file.type || 'application/octet-stream' });
  reader.readAsDataURL(file);
}

function ImageFields({ id, draft, set }: { id: string; draft: SamplingDraft; set: Patch }): ReactNode {
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      <Field id={`${id}-file`} label="Image file">
        <input id={`${id}-file`} type="file" accept="image/png,image/jpeg,image/gif,image/webp" className="text-xs" onChange={(e) => e.target.files?.[0] && readImage(e.target.files[0], set)} />
      </Field>
      <Field id={`${id}-mime`} label="Image MIME type">
        <input id={`${id}-mime`} className={`${inputClass} font-mono`} value={draft.imageMimeType} onChange={(e) => set({ imageMimeType: e.target.value })} />
      </Field>
      <Field id={`${id}-data`} label="Image data (base64)" className="sm:col-span-2">
        <textarea id={`${id}-data`} rows={3} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={draft.imageData} onChange={(e) => set({ imageData: e.target.value })} />
      </Field>
    </div>
  );
}

function ToolUseFields({ id, draft, set, view }: { id: string; draft: SamplingDraft; set: Patch; view: SamplingView }): ReactNode {
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      <Field id={`${id}-tool`} label="Tool">
        <select id={`${id}-tool`} className={inputClass} value={draft.toolName} onChange={(e) => set({ toolName: e.target.value })}>
          <option value="">(choose)</option>
          {view.tools.map((t, i) => <option key={i} value={t.name}>{t.name}</option>)}
        </select>
      </Field>
      <Field id={`${id}-useid`} label="Tool use id">
        <input id={`${id}-useid`} className={`${inputClass} font-mono`} value={draft.toolUseId} onChange={(e) => set({ toolUseId: e.target.value })} />
      </Field>
      <Field id={`${id}-input`} label="Tool input" className="sm:col-span-2">
        <textarea id={`${id}-input`} rows={4} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={draft.toolInput} onChange={(e) => set({ toolInput: e.target.value })} />
      </Field>
    </div>
  );
}

function Presets({ id, presets, draft, setDraft, onSave, onRemove }: { id: string; presets: readonly SamplingPreset[]; draft: SamplingDraft; setDraft(d: SamplingDraft): void; onSave(name: string): void; onRemove(name: string): void }): ReactNode {
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState('');
  return (
    <div className="flex flex-wrap items-end gap-2 border-t border-zinc-200 pt-2 dark:border-zinc-700">
      <Field id={`${id}-preset`} label="Preset">
        <select id={`${id}-preset`} className={inputClass} value={chosen} onChange={(e) => {
          setChosen(e.target.value);
          const preset = presets.find((p) => p.name === e.target.value);
          if (preset) setDraft(applyPreset(draft, preset));
        }}>
          <option value="">{presets.length === 0 ? '(none saved)' : '(choose)'}</option>
          {presets.map((p) => <option key={p.name} value={p.name}>{p.name}</option>)}
        </select>
      </Field>
      {chosen !== '' && <button type="button" className={buttonClass} onClick={() => { onRemove(chosen); setChosen(''); }}>Delete preset</button>}
      <Field id={`${id}-preset-name`} label="Preset name">
        <input id={`${id}-preset-name`} className={inputClass} value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <button type="button" className={buttonClass} disabled={name.trim() === ''} onClick={() => { onSave(name); setChosen(name.trim()); setName(''); }}>Save preset</button>
    </div>
  );
}

function KindAndRole({ id, draft, set, view }: { id: string; draft: SamplingDraft; set: Patch; view: SamplingView }): ReactNode {
  const chooseKind = (kind: ReplyKind) => set(kind === 'tool_use' ? { kind, stopReason: 'toolUse', toolName: draft.toolName || (view.tools[0]?.name ?? '') } : { kind, stopReason: draft.stopReason === 'toolUse' ? 'endTurn' : draft.stopReason });
  return (
    <div className="grid gap-2 sm:grid-cols-4">
      <Field id={`${id}-role`} label="Role">
        <select id={`${id}-role`} className={inputClass} value={draft.role} onChange={(e) => set({ role: e.target.value === 'user' ? 'user' : 'assistant' })}>
          <option value="assistant">assistant</option>
          <option value="user">user</option>
        </select>
      </Field>
      <Field id={`${id}-kind`} label="Reply type">
        <select id={`${id}-kind`} className={inputClass} value={draft.kind} onChange={(e) => chooseKind(e.target.value as ReplyKind)}>
          <option value="text">Text</option>
          <option value="image">Image</option>
          {view.tools.length > 0 && <option value="tool_use">Tool use</option>}
        </select>
      </Field>
      <Field id={`${id}-model`} label="Model">
        <input id={`${id}-model`} className={`${inputClass} font-mono`} value={draft.model} onChange={(e) => set({ model: e.target.value })} />
      </Field>
      <Field id={`${id}-stop`} label="Stop reason">
        <input id={`${id}-stop`} list={`${id}-stops`} className={`${inputClass} font-mono`} value={draft.stopReason} onChange={(e) => set({ stopReason: e.target.value })} />
        <datalist id={`${id}-stops`}>{STOP_REASONS.map((r) => <option key={r} value={r} />)}</datalist>
      </Field>
    </div>
  );
}

export function SamplingReply(props: SamplingReplyProps): ReactNode {
  const id = useId();
  const [draft, setDraft] = useState<SamplingDraft>(() => ({ ...DEFAULT_DRAFT, toolUseId: `toolu_loupe_${Math.random().toString(36).slice(2, 10)}` }));
  const [error, setError] = useState<string>();
  // Adjusted while rendering (not in an effect), so the editor never shows the old draft with the new answer pending.
  const [applied, setApplied] = useState<string>();
  if (props.suggestion && props.suggestion.id !== applied) {
    setApplied(props.suggestion.id);
    setDraft({ ...draft, ...props.suggestion.draft });
    setError(undefined);
  }
  const set: Patch = (patch) => {
    setDraft((old) => ({ ...old, ...patch }));
    setError(undefined);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildSamplingResult(draft, props.view);
    if (built.ok) props.onSend(built.result);
    else setError(built.error);
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Reply" className="space-y-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
      <KindAndRole id={id} draft={draft} set={set} view={props.view} />
      {draft.kind === 'text' && (
        <Field id={`${id}-text`} label="Reply text">
          <textarea id={`${id}-text`} rows={3} className={inputClass} value={draft.text} onChange={(e) => set({ text: e.target.value })} />
        </Field>
      )}
      {draft.kind === 'image' && <ImageFields id={id} draft={draft} set={set} />}
      {draft.kind === 'tool_use' && <ToolUseFields id={id} draft={draft} set={set} view={props.view} />}
      <div aria-live="polite" className="text-sm text-red-700 dark:text-red-300">{error && <Text>{error}</Text>}</div>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={primaryButtonClass} disabled={props.busy}>Send reply</button>
        <button type="button" className={buttonClass} disabled={props.busy} onClick={props.onReject}>Reject</button>
      </div>
      <Presets id={id} presets={props.presets} draft={draft} setDraft={(d) => { setDraft(d); setError(undefined); }} onSave={(name) => props.onSavePreset(name, draft)} onRemove={props.onRemovePreset} />
    </form>
  );
}
