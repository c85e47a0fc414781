/** Trouble with the tab's own link to Loupe (not the MCP session): shown plainly, with a retry. */
import { useEffect, useState, type ReactNode } from 'react';
import { Text } from '../ui/text.tsx';
import { buttonClass } from '../ui/ui.tsx';

/** The socket's health as the store sees it. */
export interface SocketView {
  phase: 'no-token' | 'connecting' | 'open' | 'waiting';
  attempt: number;
  retryAt?: number;
  everOpened: boolean;
}

export interface SocketBannerProps {
  socket: SocketView;
  onRetry(): void;
}

function useSecondsUntil(at: number | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [at]);
  return at === undefined ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

const bannerClass = 'border-b px-4 py-2 text-sm';
const warnClass = `${bannerClass} border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100`;

export function SocketBanner({ socket, onRetry }: SocketBannerProps): ReactNode {
  const seconds = useSecondsUntil(socket.phase === 'waiting' ? socket.retryAt : undefined);
  if (socket.phase === 'no-token') {
    return (
      <div aria-live="assertive" className={warnClass}>
        This page has no access token. Open the address that <code>mcp-loupe</code> printed (it ends in <code>?token=…</code>).
      </div>
    );
  }
  if (socket.phase !== 'waiting' && !(socket.phase === 'connecting' && socket.attempt > 0)) return <div aria-live="assertive" />;
  return (
    <div aria-live="assertive" className={`${warnClass} flex flex-wrap items-center gap-3`}>
      <span>
        {socket.everOpened ? 'Lost the link to the Loupe process.' : 'Cannot reach the Loupe process.'}{' '}
        {socket.phase === 'waiting' ? `Trying again in ${seconds ?? 0} s (attempt ${socket.attempt + 1}).` : 'Trying again…'}
        {socket.attempt >= 4 && ' Is mcp-loupe still running? If it was restarted, open the new address it printed.'}
      </span>
      {socket.phase === 'waiting' && <button type="button" className={`${buttonClass} !py-0.5`} onClick={onRetry}>Retry now</button>}
    </div>
  );
}

export function InvalidMessages({ count, recent }: { count: number; recent: readonly { error: string; text: string }[] }): ReactNode {
  if (count === 0) return null;
  const last = recent[recent.length - 1];
  return (
    <details className={warnClass}>
      <summary className="cursor-pointer">Ignored {count} malformed {count === 1 ? 'message' : 'messages'} from Loupe</summary>
      {last && <p className="mt-1 font-mono text-xs"><Text>{`${last.error} — ${last.text}`}</Text></p>}
    </details>
  );
}
