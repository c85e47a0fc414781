'use client';
/** The whole page: stores created once per tab, the header, the side panels and the main tabs. */
import { useEffect, useState, type ReactNode } from 'react';
import { InvalidMessages, SocketBanner } from '@/components/socket-banner.tsx';
import { Tabs, type TabSpec } from '@/components/tabs.tsx';
import { Text } from '@/components/text.tsx';
import { TopBar } from '@/components/top-bar.tsx';
import { PromptsContainer, ResourcesContainer } from './catalog-containers.tsx';
import { ConnectionContainer } from './connection-container.tsx';
import { HistoryContainer } from './history-container.tsx';
import { createServices, startServices } from './loupe-services.ts';
import { NotificationsContainer } from './notifications-container.tsx';
import { PendingContainer } from './pending-container.tsx';
import { TasksContainer, useActiveTaskCount } from './tasks-container.tsx';
import { ToolsContainer } from './tools-container.tsx';
import { LoupeContext, useLoupeSelector, usePromptList, useResourceList, useServices, useTheme, useToolList } from './use-loupe.ts';
import { useMainTab } from './use-primitives.ts';

type TabId = 'tools' | 'resources' | 'prompts' | 'history' | 'notifications' | 'tasks';

/** Panels mounted only while their tab is shown (the Tools tab stays mounted: its form keeps its input). */
const PANELS: Record<Exclude<TabId, 'tools'>, () => ReactNode> = {
  resources: ResourcesContainer,
  prompts: PromptsContainer,
  history: HistoryContainer,
  notifications: NotificationsContainer,
  tasks: TasksContainer,
};

function Banners(): ReactNode {
  const { app } = useServices();
  const socket = useLoupeSelector((s) => s.socket);
  const invalid = useLoupeSelector((s) => s.invalid);
  const errors = useLoupeSelector((s) => s.proxyErrors);
  const last = errors[errors.length - 1];
  return (
    <>
      <SocketBanner socket={socket} onRetry={() => app.retryNow()} />
      <InvalidMessages count={invalid.count} recent={invalid.recent} />
      {last && (
        <div className="flex items-center gap-3 border-b border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          <span>
            Loupe could not act on a request: <Text>{last.error.message}</Text> ({last.error.code}){errors.length > 1 ? ` and ${errors.length - 1} more` : ''}
          </span>
          <button type="button" className="underline" onClick={() => app.dismissErrors()}>Dismiss</button>
        </div>
      )}
    </>
  );
}

function MainTabs(): ReactNode {
  // The tab lives in a store: a resource link in a tool result opens the Resources tab.
  const { nav } = useServices();
  const tab = useMainTab() as TabId;
  const setTab = (id: TabId) => nav.show(id);
  const tools = useToolList();
  const resources = useResourceList();
  const prompts = usePromptList();
  const activeTasks = useActiveTaskCount();
  const tabs: TabSpec<TabId>[] = [
    { id: 'tools', label: 'Tools', count: tools.status === 'done' ? tools.items.length : undefined },
    { id: 'resources', label: 'Resources', count: resources.status === 'done' ? resources.items.length : undefined },
    { id: 'prompts', label: 'Prompts', count: prompts.status === 'done' ? prompts.items.length : undefined },
    { id: 'history', label: 'History' },
    { id: 'notifications', label: 'Notifications' },
    { id: 'tasks', label: 'Tasks', count: activeTasks > 0 ? activeTasks : undefined },
  ];
  const Panel = tab === 'tools' ? undefined : PANELS[tab];
  return (
    <Tabs<TabId> label="Main" tabs={tabs} selected={tab} onSelect={setTab}>
      <div hidden={tab !== 'tools'}>
        <ToolsContainer />
      </div>
      {Panel && <Panel />}
    </Tabs>
  );
}

function Shell(): ReactNode {
  const services = useServices();
  const theme = useTheme();
  return (
    <div className="flex min-h-screen flex-col">
      <TopBar dark={theme === 'dark'} onToggleTheme={() => services.theme.toggle()} />
      <Banners />
      <main className="grid flex-1 gap-4 p-4 md:grid-cols-[minmax(18rem,24rem)_minmax(0,1fr)]">
        <aside className="min-w-0">
          <ConnectionContainer />
        </aside>
        <div className="min-w-0">
          <PendingContainer />
          <MainTabs />
        </div>
      </main>
    </div>
  );
}

export function LoupeApp(): ReactNode {
  const [services] = useState(createServices);
  useEffect(() => startServices(services), [services]);
  return (
    <LoupeContext.Provider value={services}>
      <Shell />
    </LoupeContext.Provider>
  );
}
