'use client';
/**
 * The side column (Servers, the connection, Loupe's client side) and its toggle (issue 26). Hidden,
 * it leaves a thin rail with `Show side column` and the shown server's status, and the main area
 * takes the width. Open or not is the layout store's (`toggleSidebar`, which the palette calls too),
 * kept across reloads. Hidden, not unmounted: what was typed in its forms is still there.
 */
import type { ReactNode } from 'react';
import type { SessionStatus } from '../../lib/wire/wire.ts';
import { ALL_SERVERS } from '../_session/loupe-services.ts';
import { useLayout } from '../_hooks/use-layout.ts';
import { useLoupeSelector, useServices } from '../_hooks/use-loupe.ts';
import { ConnectionContainer } from './connection.tsx';
import { ServersContainer } from './servers.tsx';

const STATUS: Record<SessionStatus, { word: string; dot: string }> = {
  connected: { word: 'Connected', dot: 'bg-emerald-500' },
  connecting: { word: 'Connecting…', dot: 'bg-amber-400 animate-pulse' },
  disconnected: { word: 'Disconnected', dot: 'bg-zinc-400' },
  failed: { word: 'Failed', dot: 'bg-red-500' },
};

const toggleClass =
  'inline-flex size-6 items-center justify-center rounded-full border border-zinc-300 bg-white text-zinc-600 shadow-sm hover:bg-zinc-50 hover:text-zinc-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-600 dark:bg-zinc-800 dark:text-zinc-300 dark:hover:bg-zinc-700 dark:hover:text-zinc-100';

function Chevron({ left }: { left: boolean }): ReactNode {
  return (
    <svg aria-hidden="true" viewBox="0 0 12 12" className="size-3">
      <path d={left ? 'M7.5 2.5 4 6l3.5 3.5' : 'M4.5 2.5 8 6l-3.5 3.5'} fill="none" stroke="currentColor" strokeWidth="1.6" />
    </svg>
  );
}

/** The collapsed column: the toggle, and the shown server's status as a dot (a `status`: the panel's is hidden). */
function Rail({ shown, onShow }: { shown: string | undefined; onShow(): void }): ReactNode {
  const status = useLoupeSelector((s) => (shown === undefined || shown === ALL_SERVERS ? undefined : s.sessions[shown]?.status));
  const state = status ? STATUS[status] : undefined;
  return (
    <div className="flex flex-col items-center gap-3 pt-1">
      <button type="button" aria-label="Show side column" title="Show side column" className={toggleClass} onClick={onShow}>
        <Chevron left={false} />
      </button>
      {state && (
        <div role="status" title={state.word} className="flex flex-col items-center">
          <span aria-hidden="true" className={`inline-block size-2.5 rounded-full ${state.dot}`} />
          <span className="sr-only">{state.word}</span>
        </div>
      )}
    </div>
  );
}

/** The grid's columns for the side column open or not (the main area is the second column). */
export function sideColumns(open: boolean): string {
  return open ? 'md:grid-cols-[minmax(16rem,20rem)_minmax(0,1fr)] xl:grid-cols-[minmax(18rem,24rem)_minmax(0,1fr)]' : 'grid-cols-[1.5rem_minmax(0,1fr)]';
}

export function useSideColumnOpen(): boolean {
  return useLayout().sidebar;
}

export function SideColumn({ shown }: { shown: string | undefined }): ReactNode {
  const { layout } = useServices();
  const open = useSideColumnOpen();
  return (
    <>
      {!open && <Rail shown={shown} onShow={() => layout.toggleSidebar(true)} />}
      <aside aria-label="Side column" hidden={!open} className="relative min-w-0 space-y-3">
        {/* On the column's edge, over the gap between the columns. */}
        <button type="button" aria-label="Hide side column" title="Hide side column" className={`${toggleClass} absolute -right-5 top-1 z-10 max-md:hidden`} onClick={() => layout.toggleSidebar(false)}>
          <Chevron left />
        </button>
        <ServersContainer />
        {shown !== ALL_SERVERS && <ConnectionContainer key={shown ?? ''} id={shown} />}
      </aside>
    </>
  );
}
