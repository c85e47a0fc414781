'use client';
/**
 * The `All servers` entry's view (issue 9, "All servers views"): every server's tools as
 * `server__tool` (all-tools-container.tsx) and one History of every server in time order
 * (merged-history-container.tsx). Selecting this entry subscribes the tab to every session's events.
 */
import type { ReactNode } from 'react';
import { Tabs } from '@/components/tabs.tsx';
import { Panel } from '@/components/ui.tsx';
import { AllToolsContainer } from './all-tools-container.tsx';
import { MergedHistoryContainer } from './merged-history-container.tsx';
import { useLoupeSelector } from './use-loupe.ts';
import { useStore } from './use-store.ts';
import { ValueStore } from './value-store.ts';

type View = 'tools' | 'history';

/** Which view is shown, kept while a single server is shown (one per tab: module state). */
const shownView = new ValueStore<View>('tools');

export function AllServersView(): ReactNode {
  const count = useLoupeSelector((s) => s.order.length);
  const view = useStore(shownView);
  return (
    <Panel label="All servers" title={`All servers (${count})`}>
      <Tabs<View> label="All servers views" tabs={[{ id: 'tools', label: 'Tools' }, { id: 'history', label: 'History' }]} selected={view} onSelect={(id) => shownView.set(id)}>
        {view === 'tools' ? <AllToolsContainer /> : <MergedHistoryContainer />}
      </Tabs>
    </Panel>
  );
}
