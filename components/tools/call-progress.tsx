/** A running call's progress (from `notifications/progress`): a bar when the total is known, the message, Cancel. */
import type { ReactNode } from 'react';
import { Text } from '../ui/text.tsx';
import { buttonClass } from '../ui/ui.tsx';

export interface ProgressInfo {
  progress: number;
  total?: number;
  message?: string;
  count: number;
}

export function CallProgress({ progress, label, cancelling, onCancel }: { progress?: ProgressInfo; label: string; cancelling?: boolean; onCancel?: () => void }): ReactNode {
  const total = progress?.total !== undefined && progress.total > 0 ? progress.total : undefined;
  const fraction = total !== undefined && progress ? Math.max(0, Math.min(1, progress.progress / total)) : undefined;
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total ?? undefined}
        aria-valuenow={progress?.progress}
        aria-valuetext={progress ? `${progress.progress}${total !== undefined ? ` of ${total}` : ''}${progress.message ? `: ${progress.message}` : ''}` : 'waiting'}
        className="h-2 min-w-[8rem] flex-1 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-700"
      >
        <div
          className={`h-full bg-sky-600 transition-[width] dark:bg-sky-400 ${fraction === undefined ? 'w-1/3 animate-pulse' : ''}`}
          style={fraction === undefined ? undefined : { width: `${fraction * 100}%` }}
        />
      </div>
      <span className="tabular-nums text-zinc-600 dark:text-zinc-300">
        {progress ? `${progress.progress}${total !== undefined ? ` / ${total}` : ''}` : 'running…'}
      </span>
      {onCancel && (
        <button type="button" className={`${buttonClass} !px-2 !py-0.5 !text-xs`} disabled={cancelling} onClick={onCancel}>
          {cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      )}
      {progress?.message !== undefined && <p className="w-full text-zinc-600 dark:text-zinc-300"><Text>{progress.message}</Text></p>}
    </div>
  );
}
