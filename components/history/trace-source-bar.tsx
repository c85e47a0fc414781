/**
 * Above the History list: which trace is shown (the live session or an imported file, read-only),
 * import / export, ping, and what was dropped (capped buffers are counted, never silent).
 */
import type { ReactNode } from 'react';
import { buttonClass, inputClass, Note } from '../ui/ui.tsx';

export interface ImportSummary {
  key: string;
  name: string;
  events: number;
  exportedAt?: string;
  server?: string;
  problemCount: number;
  problems: readonly { line: number; error: string }[];
}

export interface PingView {
  canPing: boolean;
  sending: boolean;
  /** "pong in 1.2 ms" or the error, after a ping. */
  text?: string;
  ok?: boolean;
}

export interface TraceSourceBarProps {
  source: string;
  liveLabel: string;
  imports: readonly ImportSummary[];
  importError?: string;
  dropped: { proxy: number; tab: number };
  exportOpen: boolean;
  ping: PingView;
  onSource(key: string): void;
  onImport(file: File): void;
  onCloseImport(key: string): void;
  onToggleExport(): void;
  onPing(): void;
}

const small = `${buttonClass} !px-2 !py-1 !text-xs`;

function Dropped({ dropped }: { dropped: { proxy: number; tab: number } }): ReactNode {
  if (dropped.proxy + dropped.tab === 0) return null;
  const parts = [
    dropped.proxy > 0 ? `${dropped.proxy.toLocaleString('en')} by Loupe's trace buffer (raise it with --trace-limit)` : '',
    dropped.tab > 0 ? `${dropped.tab.toLocaleString('en')} by this tab's cap` : '',
  ].filter(Boolean);
  return <Note tone="warn">{(dropped.proxy + dropped.tab).toLocaleString('en')} older events were dropped: {parts.join(', ')}.</Note>;
}

function Imported({ entry, onClose }: { entry: ImportSummary; onClose(): void }): ReactNode {
  return (
    <div role="note" aria-label="Imported trace" className="flex flex-wrap items-center gap-2 rounded-md border border-violet-300 bg-violet-50 px-3 py-1.5 text-xs text-violet-900 dark:border-violet-700 dark:bg-violet-950 dark:text-violet-100">
      <strong>Read-only: imported trace</strong>
      <span className="font-mono">{entry.name}</span>
      <span>{entry.events.toLocaleString('en')} events{entry.server ? ` from ${entry.server}` : ''}{entry.exportedAt ? `, exported ${entry.exportedAt}` : ''}</span>
      {entry.problemCount > 0 && (
        <span title={entry.problems.map((p) => `line ${p.line}: ${p.error}`).join('\n')}>· {entry.problemCount} unreadable lines skipped (first: line {entry.problems[0]?.line})</span>
      )}
      <button type="button" className={`${small} ml-auto`} onClick={onClose}>Close imported trace</button>
    </div>
  );
}

export function TraceSourceBar(props: TraceSourceBarProps): ReactNode {
  const { source, liveLabel, imports, importError, dropped, exportOpen, ping, onSource, onImport, onCloseImport, onToggleExport, onPing } = props;
  const active = imports.find((entry) => entry.key === source);
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        {imports.length > 0 && (
          <select aria-label="Trace source" className={`${inputClass} !w-auto !py-1 text-xs`} value={source} onChange={(e) => onSource(e.target.value)}>
            <option value="live">{liveLabel}</option>
            {imports.map((entry) => (
              <option key={entry.key} value={entry.key}>{`Imported: ${entry.name}`}</option>
            ))}
          </select>
        )}
        <label className={`${small} cursor-pointer`}>
          Import trace…
          <input
            type="file"
            aria-label="Import trace"
            accept=".jsonl,.ndjson,application/x-ndjson,application/jsonl,text/plain"
            className="sr-only"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) onImport(file);
              e.target.value = '';
            }}
          />
        </label>
        <button type="button" className={small} aria-expanded={exportOpen} onClick={onToggleExport}>Export…</button>
        <span className="ml-auto flex items-center gap-2">
          {ping.text !== undefined && (
            <span role="status" aria-label="Ping result" className={`text-xs ${ping.ok ? 'text-emerald-700 dark:text-emerald-300' : 'text-red-700 dark:text-red-300'}`}>{ping.text}</span>
          )}
          <button type="button" className={small} disabled={!ping.canPing || ping.sending} onClick={onPing} title="Send ping and measure the round trip">
            {ping.sending ? 'Pinging…' : 'Ping'}
          </button>
        </span>
      </div>
      {importError && <Note tone="bad">Could not import {importError}</Note>}
      {active && <Imported entry={active} onClose={() => onCloseImport(active.key)} />}
      <Dropped dropped={dropped} />
    </div>
  );
}
