/** A call's timeout settings: how long to wait, whether progress restarts the wait, and a hard cap. */
import { useId, type ReactNode } from 'react';
import { inputClass } from '../ui/ui.tsx';

export interface RunSettingsValue {
  timeoutMs: number;
  resetTimeoutOnProgress: boolean;
  maxTotalTimeoutMs?: number;
}

const seconds = (ms: number | undefined): string => (ms === undefined ? '' : String(ms / 1000));

function toMs(text: string): number | undefined {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) && n > 0 ? Math.round(n * 1000) : undefined;
}

export function ToolRunSettings({ value, onChange }: { value: RunSettingsValue; onChange(next: RunSettingsValue): void }): ReactNode {
  const id = useId();
  const summary = `timeout ${seconds(value.timeoutMs)} s${value.resetTimeoutOnProgress ? ', reset on progress' : ''}${value.maxTotalTimeoutMs !== undefined ? `, at most ${seconds(value.maxTotalTimeoutMs)} s` : ''}`;
  return (
    <details className="text-xs text-zinc-600 dark:text-zinc-300">
      <summary className="cursor-pointer select-none">Call options ({summary})</summary>
      <div className="mt-2 grid gap-2 sm:grid-cols-3">
        <div>
          <label htmlFor={`${id}-t`} className="mb-1 block font-medium">Call timeout (seconds)</label>
          <input id={`${id}-t`} type="number" min="0.1" step="any" className={inputClass} defaultValue={seconds(value.timeoutMs)}
            onChange={(e) => { const ms = toMs(e.target.value); if (ms !== undefined) onChange({ ...value, timeoutMs: ms }); }} />
        </div>
        <label className="flex items-center gap-2 self-end pb-2">
          <input type="checkbox" className="size-4 accent-sky-600" checked={value.resetTimeoutOnProgress} onChange={(e) => onChange({ ...value, resetTimeoutOnProgress: e.target.checked })} />
          Reset timeout on progress
        </label>
        <div>
          <label htmlFor={`${id}-m`} className="mb-1 block font-medium">Maximum call time (seconds)</label>
          <input id={`${id}-m`} type="number" min="0.1" step="any" placeholder="no limit" className={inputClass} defaultValue={seconds(value.maxTotalTimeoutMs)}
            onChange={(e) => onChange({ ...value, maxTotalTimeoutMs: toMs(e.target.value) })} />
        </div>
      </div>
    </details>
  );
}
