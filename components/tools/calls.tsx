/** Calls in flight, on any tool: each with its progress and a Cancel, none blocking another. */
import type { ReactNode } from 'react';
import { CallProgress, type ProgressInfo } from './call-progress.tsx';
import { Text } from '../ui/text.tsx';
import { buttonClass } from '../ui/ui.tsx';

export interface RunningCall {
  id: string;
  tool: string;
  startedAt: number;
  progress?: ProgressInfo;
  cancelRequested?: boolean;
}

export function ToolCalls({ calls, onCancel, onShow }: { calls: readonly RunningCall[]; onCancel(id: string): void; onShow(tool: string): void }): ReactNode {
  if (calls.length === 0) return null;
  return (
    <section aria-label="Calls in flight" className="rounded-lg border border-sky-200 bg-sky-50/60 p-2 dark:border-sky-900 dark:bg-sky-950/30">
      <h2 className="mb-1 text-xs font-semibold text-sky-900 dark:text-sky-200">{calls.length} {calls.length === 1 ? 'call' : 'calls'} in flight</h2>
      <ul className="space-y-2">
        {calls.map((call) => (
          <li key={call.id} aria-label={`Call of ${call.tool}`} className="space-y-1">
            <div className="flex min-w-0 items-center gap-2 text-xs">
              <button type="button" className={`${buttonClass} !px-2 !py-0.5 !text-xs`} onClick={() => onShow(call.tool)}>Show</button>
              <Text className="min-w-0 truncate font-mono">{call.tool}</Text>
            </div>
            <CallProgress progress={call.progress} label={`Progress of ${call.tool}`} cancelling={call.cancelRequested} onCancel={() => onCancel(call.id)} />
          </li>
        ))}
      </ul>
    </section>
  );
}
