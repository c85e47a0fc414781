'use client';
/**
 * The `All servers` entry's view (issue 9, "All servers views"): every server's tools as
 * `server__tool` (all-tools-container.tsx) and one History of every server in time order
 * (merged-history-container.tsx), and every server's tool definitions for an LLM API
 * (doctor-export-container.tsx, issue 14). Selecting this entry subscribes the tab to every session's events.
 */
import type { ReactNode } from 'react';
import { Tabs, type TabSpec } from '@/components/ui/tabs.tsx';
import { Panel } from '@/components/ui/ui.tsx';
import { AllToolsContainer } from './all-tools.tsx';
import { AllServersExportContainer } from './doctor-export.tsx';
import { MergedHistoryContainer } from './merged-history.tsx';
import { useLoupeSelector } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';
import { ValueStore } from '../_stores/value-store.ts';

type View = 'tools' | 'history' | 'export';

const VIEWS: TabSpec<View>[] = [
  { id: 'tools', label: 'Tools' },
  { id: 'history', label: 'History' },
  { id: 'export', label: 'Export tools' },
];

/** Which view is shown, kept while a single server is shown (one per tab: module state). */
const shownView = new ValueStore<View>('tools');

export function AllServersView(): ReactNode {
  const count = useLoupeSelector((s) => s.order.length);
  const view = useStore(shownView);
  return (
    <Panel label="All servers" title={`All servers (${count})`}>
      <Tabs<View> label="All servers views" tabs={VIEWS} selected={view} onSelect={(id) => shownView.set(id)}>
        {view === 'tools' ? <AllToolsContainer /> : view === 'history' ? <MergedHistoryContainer /> : <AllServersExportContainer />}
      </Tabs>
    </Panel>
  );
}
