/**
 * The connection folded to one line once the session is connected (issue 26): the status (still the
 * panel's `status`), the server and its transport, `Edit` to unfold the form, and `Disconnect`.
 */
import type { ReactNode } from 'react';
import { buttonClass } from '../ui/ui.tsx';

export interface ConnectionSummaryProps {
  word: string;
  dot: string;
  /** The server's name, its transport, its pid: "everything · stdio · pid 4242". */
  detail?: string;
  canDisconnect: boolean;
  onEdit(): void;
  onDisconnect(): void;
}

const smallButton = `${buttonClass} !px-2 !py-1 !text-xs`;

export function ConnectionSummary({ word, dot, detail, canDisconnect, onEdit, onDisconnect }: ConnectionSummaryProps): ReactNode {
  return (
    <div className="flex min-w-0 items-center gap-2">
      <div role="status" className="flex min-w-0 flex-1 items-center gap-2" title={detail ? `${word} · ${detail}` : word}>
        <span aria-hidden="true" className={`inline-block size-2.5 shrink-0 rounded-full ${dot}`} />
        <span className="flex min-w-0 flex-col leading-tight">
          <span className="text-sm font-semibold">{word}</span>
          {/* The separator is for a screen reader, which reads the two lines as one. */}
          {detail && <span className="truncate text-xs text-zinc-500 dark:text-zinc-400"><span className="sr-only">· </span>{detail}</span>}
        </span>
      </div>
      <button type="button" aria-label="Edit connection" className={smallButton} onClick={onEdit}>Edit</button>
      <button type="button" className={smallButton} disabled={!canDisconnect} onClick={onDisconnect}>Disconnect</button>
    </div>
  );
}
