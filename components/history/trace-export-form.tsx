/**
 * Export the trace as JSON Lines (README.md, "Trace files"): all of it or the rows the filter
 * shows, with the env values / header values the user marks secret masked. Names that look
 * secret (…KEY, …TOKEN, Authorization …) are marked to begin with.
 */
import type { ReactNode } from 'react';
import type { SecretChoice } from '../../lib/trace/jsonl.ts';
import { buttonClass, primaryButtonClass } from '../ui/ui.tsx';

export interface TraceExportFormProps {
  total: number;
  shown: number;
  scope: 'all' | 'shown';
  /** What the filter is, in words (the query and the controls set), said beside `The rows the filter shows`. */
  filterText?: string;
  /** Env variable names (stdio) or header names (HTTP) of the session's config. */
  names: readonly string[];
  what: 'env' | 'headers';
  secrets: SecretChoice;
  onScope(scope: 'all' | 'shown'): void;
  onSecrets(secrets: SecretChoice): void;
  onDownload(): void;
  /** The same rows as OTLP JSON spans (issue 28), for a tracing backend. */
  onDownloadOtlp?(): void;
  onClose(): void;
}

function Radio({ label, checked, onChange, describedBy }: { label: string; checked: boolean; onChange(): void; describedBy?: string }): ReactNode {
  return (
    <label className="flex items-center gap-1.5">
      <input type="radio" name="trace-export-scope" checked={checked} onChange={onChange} aria-describedby={describedBy} />
      {label}
    </label>
  );
}

export function TraceExportForm({ total, shown, scope, filterText, names, what, secrets, onScope, onSecrets, onDownload, onDownloadOtlp, onClose }: TraceExportFormProps): ReactNode {
  const marked = what === 'env' ? secrets.env : secrets.headers;
  const mark = (name: string, on: boolean) => {
    const next = on ? [...marked, name] : marked.filter((n) => n !== name);
    onSecrets(what === 'env' ? { ...secrets, env: next } : { ...secrets, headers: next });
  };
  return (
    <section aria-label="Export trace" className="space-y-3 rounded-md border border-zinc-200 bg-zinc-50 p-3 text-sm dark:border-zinc-700 dark:bg-zinc-950">
      <fieldset className="space-y-1">
        <legend className="text-xs font-semibold text-zinc-600 dark:text-zinc-300">What</legend>
        <Radio label={`The whole trace (${total.toLocaleString('en')} events)`} checked={scope === 'all'} onChange={() => onScope('all')} />
        <Radio label={`The rows the filter shows (${shown.toLocaleString('en')})`} checked={scope === 'shown'} onChange={() => onScope('shown')} describedBy={filterText ? 'trace-export-filter' : undefined} />
        {filterText && (
          <p id="trace-export-filter" className="pl-5 font-mono text-xs text-zinc-600 dark:text-zinc-300">
            Only what the filter shows: {filterText}
          </p>
        )}
      </fieldset>
      <fieldset className="space-y-1">
        <legend className="text-xs font-semibold text-zinc-600 dark:text-zinc-300">Secrets</legend>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">HTTP header values in the trace are masked already. Mark the {what === 'env' ? 'environment variables' : 'headers'} of the connection whose values are secret:</p>
        {names.length === 0 && <p className="text-xs text-zinc-500 dark:text-zinc-400">(This connection has none.)</p>}
        {names.map((name) => (
          <label key={name} className="flex items-center gap-1.5 font-mono text-xs">
            <input type="checkbox" aria-label={`Mask ${name}`} checked={marked.includes(name)} onChange={(e) => mark(name, e.target.checked)} />
            {name}
          </label>
        ))}
        <label className="flex items-center gap-1.5 text-xs">
          <input type="checkbox" checked={secrets.redactInEvents} onChange={(e) => onSecrets({ ...secrets, redactInEvents: e.target.checked })} />
          Also replace the marked values wherever they appear in frames, stderr and noise
        </label>
      </fieldset>
      <div className="flex gap-2">
        <button type="button" className={primaryButtonClass} onClick={onDownload}>Download JSONL</button>
        {onDownloadOtlp && <button type="button" className={buttonClass} onClick={onDownloadOtlp}>Download OTLP JSON</button>}
        <button type="button" className={buttonClass} onClick={onClose}>Close</button>
      </div>
    </section>
  );
}
