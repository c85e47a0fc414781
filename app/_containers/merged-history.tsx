'use client';
/**
 * The merged History of `All servers` (issue 9): every session's frames in time order with a
 * `Server` column, the History filters plus a `Server filter`, and the selected frame in full.
 * Replay sends on the frame's own server; Edit opens that server's History with the frame in its
 * composer. The region keeps the name `History` (docs/contract.md).
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { FrameDetail } from '@/components/history/frame-detail.tsx';
import { HistoryTable } from '@/components/history/table.tsx';
import { HistoryToolbar } from '@/components/history/toolbar.tsx';
import { ServerFilter } from '@/components/servers/filter.tsx';
import { Note, Panel } from '@/components/ui/ui.tsx';
import { indexOfMerged } from '../../lib/trace/merge.ts';
import type { HistoryRow } from '../../lib/trace/trace.ts';
import { interventionLinks } from '../_stores/intervention-links.ts';
import { MergedHistoryStore } from '../_stores/merged-history-store.ts';
import { serverName } from './servers.tsx';
import { useQueryValues, useSavedQueries } from './history-query.ts';
import { useLoupeSelector, useServices } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';

/** The store lives while the view is shown (it follows every session's trace only then). */
function useMergedStore(): MergedHistoryStore {
  const { app, sessions } = useServices();
  const [store] = useState(() => new MergedHistoryStore({ getSnapshot: () => app.getSnapshot(), subscribe: app.subscribe, model: (id) => sessions.get(id) }));
  useEffect(() => () => store.dispose(), [store]);
  return store;
}

export function MergedHistoryContainer(): ReactNode {
  const services = useServices();
  const store = useMergedStore();
  const view = useStore(store);
  const infos = useLoupeSelector((s) => s.sessions);
  const order = useLoupeSelector((s) => s.order);
  const methods = useMemo(() => [...store.methods().entries()].sort((a, b) => a[0].localeCompare(b[0])), [store, view.total]);
  const servers = order.flatMap((id) => (infos[id] ? [{ id, name: serverName(infos[id]) }] : []));
  const names = useMemo(() => new Map(servers.map((s) => [s.id, s.name])), [servers.map((s) => `${s.id}=${s.name}`).join('\n')]);
  const values = useQueryValues(view.rows, () => store.methods().keys(), servers.map((s) => s.name), view.version);
  const savedQueries = useSavedQueries();
  const { selected } = view;
  const session = selected ? infos[selected.event.session] : undefined;
  const canSend = session?.status === 'connected';
  // An intervention's links stay within its own session's trace (issue 13).
  const sessionRows = selected ? services.sessions.peek(selected.event.session)?.trace.getSnapshot().index.rows : undefined;
  const links = useMemo(() => interventionLinks(sessionRows ?? [], selected), [sessionRows, selected, view.version]);
  const edit = (row: HistoryRow) => {
    const id = row.event.session;
    services.sessions.get(id).traceActions.edit(row);
    services.selected.set(id);
    services.nav.show('history');
  };
  return (
    <section aria-label="History" className="grid gap-3 2xl:grid-cols-[minmax(0,1fr)_24rem]">
      <div className="min-w-0 space-y-2">
        <ServerFilter servers={servers} selected={view.sessions} onChange={(ids) => store.setServers(ids)} />
        <HistoryToolbar filter={view.filter} methods={methods} shown={view.rows.length} total={view.total} violations={store.violations()} onFilter={(patch) => store.setFilter(patch)} onReset={() => store.resetFilter()} values={values} saved={savedQueries} />
        {view.total === 0 ? (
          <Note>No traffic yet on any server.</Note>
        ) : (
          <>
            <HistoryTable
              rows={view.rows}
              version={view.version}
              folded={view.filter.fold}
              scrollToken={view.scrollToken}
              onSelect={() => undefined}
              onMove={(delta) => store.move(delta)}
              merged={{ serverOf: (id) => names.get(id) ?? id, selected, selectedIndex: indexOfMerged(view.rows, selected), onSelectRow: (row) => store.select(row) }}
            />
            {view.rows.length === 0 && <Note>No rows match the filter.</Note>}
          </>
        )}
      </div>
      <Panel title={selected ? `Frame · ${names.get(selected.event.session) ?? ''}` : 'Frame'} className="min-w-0 self-start">
        <FrameDetail
          row={selected}
          canSend={canSend}
          cannotSendReason={canSend ? undefined : 'Connect the server to send'}
          onSelect={(seq) => selected && store.selectSeq(selected.event.session, seq)}
          onReplay={(row) => void services.sessions.get(row.event.session).traceActions.replay(row)}
          onEdit={edit}
          links={links}
        />
      </Panel>
    </section>
  );
}
