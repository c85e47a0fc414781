/**
 * The Playground's controls (issue 15): which servers' tools the model sees, the system prompt,
 * how calls are approved, the step limit, Compare, and the message box with Send / Stop and the
 * conversation's Export / Import / Re-run. Every decision (can Send go, is anything running) is
 * made by the container and passed in.
 */
import { useId, useRef, useState, type ReactNode } from 'react';
import { Note, buttonClass, inputClass, labelClass, primaryButtonClass } from '../ui/ui.tsx';

export interface ServerChoice {
  session: string;
  name: string;
  offered: boolean;
  /** `3 tools`, `listing tools…`, `offers no tools`. */
  words: string;
}

export function ServerChoices({ servers, notes, onChange }: { servers: readonly ServerChoice[]; notes: readonly string[]; onChange(session: string, offered: boolean): void }): ReactNode {
  return (
    <fieldset className="space-y-1">
      <legend className={labelClass}>Tools the model sees</legend>
      {servers.length === 0 && <Note>No connected server: connect one to give the model its tools.</Note>}
      {servers.map((s) => (
        <label key={s.session} className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={s.offered} onChange={(e) => onChange(s.session, e.target.checked)} />
          <span>{s.name}</span>
          <span className="text-xs text-zinc-600 dark:text-zinc-300">{s.words}</span>
        </label>
      ))}
      {notes.length > 0 && (
        <ul className="list-disc pl-5 text-xs text-zinc-600 dark:text-zinc-300">
          {notes.slice(0, 20).map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

export interface LoopSettingsProps {
  system: string;
  approveEvery: boolean;
  autoApproveReadOnly: boolean;
  maxSteps: number;
  compare: boolean;
  onSystem(text: string): void;
  onApproveEvery(on: boolean): void;
  onReadOnly(on: boolean): void;
  onMaxSteps(n: number): void;
  onCompare(on: boolean): void;
}

export function LoopSettings(props: LoopSettingsProps): ReactNode {
  const id = useId();
  return (
    <div className="space-y-2">
      <div>
        <label className={labelClass} htmlFor={`${id}-system`}>System prompt</label>
        <textarea id={`${id}-system`} rows={2} className={inputClass} value={props.system} onChange={(e) => props.onSystem(e.target.value)} />
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={props.approveEvery} onChange={(e) => props.onApproveEvery(e.target.checked)} />
          Approve every call
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={props.autoApproveReadOnly} onChange={(e) => props.onReadOnly(e.target.checked)} />
          Approve read-only tools
        </label>
        <label className="flex items-center gap-2">
          Step limit
          <input
            type="number"
            min={1}
            max={100}
            className={`${inputClass} w-20`}
            value={props.maxSteps}
            onChange={(e) => {
              const n = Math.trunc(Number(e.target.value));
              if (Number.isFinite(n) && n >= 1 && n <= 100) props.onMaxSteps(n);
            }}
          />
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={props.compare} onChange={(e) => props.onCompare(e.target.checked)} />
          Compare
        </label>
      </div>
    </div>
  );
}

export interface ComposerProps {
  running: boolean;
  /** Why Send cannot go, in words; undefined when it can. */
  problem?: string;
  canExport: boolean;
  canRerun: boolean;
  imported?: string;
  importError?: string;
  onSend(text: string): boolean;
  onStop(): void;
  onClear(): void;
  onExport(): void;
  onImport(name: string, text: string): void;
  onRerun(): void;
}

export function Composer(props: ComposerProps): ReactNode {
  const id = useId();
  const [text, setText] = useState('');
  const file = useRef<HTMLInputElement>(null);
  const send = () => {
    if (props.onSend(text)) setText('');
  };
  return (
    <div className="space-y-2">
      <label className={labelClass} htmlFor={`${id}-message`}>Message</label>
      <textarea
        id={`${id}-message`}
        rows={3}
        className={inputClass}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) send();
        }}
      />
      {props.problem && <Note tone="warn">{props.problem}</Note>}
      <div className="flex flex-wrap gap-2">
        <button type="button" className={primaryButtonClass} disabled={props.running || props.problem !== undefined || text.trim() === ''} onClick={send}>Send</button>
        {props.running && <button type="button" className={buttonClass} onClick={props.onStop}>Stop</button>}
        <button type="button" className={buttonClass} disabled={props.running} onClick={props.onClear}>Clear</button>
        <button type="button" className={buttonClass} disabled={!props.canExport} onClick={props.onExport}>Export conversation</button>
        <button type="button" className={buttonClass} disabled={props.running} onClick={() => file.current?.click()}>Import conversation</button>
        <button type="button" className={buttonClass} disabled={props.running || !props.canRerun || props.problem !== undefined} onClick={props.onRerun}>Re-run</button>
        <input
          ref={file}
          type="file"
          accept="application/json,.json"
          className="hidden"
          aria-label="Conversation file to import"
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            e.target.value = '';
            if (chosen) void chosen.text().then((content) => props.onImport(chosen.name, content));
          }}
        />
      </div>
      {props.imported && <Note>Imported {props.imported}: its settings are set; press Re-run to send its messages again.</Note>}
      {props.importError && <Note tone="bad">{props.importError}</Note>}
    </div>
  );
}
