'use client';
/**
 * The whole page: stores created once per tab, the header, the Servers and connection panels, and
 * the main tabs of the selected server. Each server visited keeps its Tools tab mounted (hidden
 * while another is shown), so that switching back finds the typed arguments as they were.
 */
import { SkipLinks } from '@/components/shell/skip-links.tsx';
import { useEffect, useState, type ReactNode } from 'react';
import { InvalidMessages, SocketBanner } from '@/components/shell/socket-banner.tsx';
import { Tabs, type TabSpec } from '@/components/ui/tabs.tsx';
import { Text } from '@/components/ui/text.tsx';
import { RelayNote } from '@/components/servers/relay-note.tsx';
import { Note } from '@/components/ui/ui.tsx';
import { TopBar } from '@/components/shell/top-bar.tsx';
import { PromptsContainer, ResourcesContainer } from './catalog-containers.tsx';
import { DoctorContainer } from './doctor.tsx';
import { HistoryContainer } from './history.tsx';
import { InterceptContainer, useHeldCount } from './intercept.tsx';
import { AllServersView } from './all-servers-view.tsx';
import { ALL_SERVERS, createServices, startServices } from '../_session/loupe-services.ts';
import { NotificationsContainer } from './notifications.tsx';
import { OAuthContainer } from './oauth.tsx';
import { PendingContainer } from './pending.tsx';
import { PlaygroundContainer } from './playground.tsx';
import { SavedCallsContainer, useSavedCallCount } from './saved-calls.tsx';
import { SideColumn, sideColumns, useSideColumnOpen } from './side-column.tsx';
import { TasksContainer, useActiveTaskCount } from './tasks.tsx';
import { TestsContainer } from './tests.tsx';
import { ToolsContainer } from './tools.tsx';
import { Workbench } from './workbench.tsx';
import { LoupeContext, SessionContext, useLoupeSelector, usePromptList, useResourceList, useSelectedServer, useServices, useSessionInfo, useTheme, useToolList } from '../_hooks/use-loupe.ts';
import { useMainTab } from '../_hooks/use-primitives.ts';

type TabId = 'tools' | 'resources' | 'prompts' | 'history' | 'notifications' | 'tasks' | 'doctor' | 'saved-calls' | 'tests' | 'intercept' | 'playground' | 'oauth';

/** Panels mounted only while their tab is shown (the Tools tab stays mounted: its form keeps its input). */
const PANELS: Record<Exclude<TabId, 'tools'>, () => ReactNode> = {
  resources: ResourcesContainer,
  prompts: PromptsContainer,
  history: HistoryContainer,
  notifications: NotificationsContainer,
  tasks: TasksContainer,
  doctor: DoctorContainer,
  'saved-calls': SavedCallsContainer,
  tests: TestsContainer,
  intercept: InterceptContainer,
  playground: PlaygroundContainer,
  oauth: OAuthContainer,
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

/** `active`: the shown server; an inactive one keeps only its Tools tab, mounted and hidden. */
function MainTabs({ active }: { active: boolean }): ReactNode {
  // The tab lives in a store: a resource link in a tool result opens the Resources tab.
  const { nav } = useServices();
  const info = useSessionInfo();
  // The OAuth tab: a remote server's sign-in, or, for a stdio server, the sentence saying why it has none.
  const remote = info?.config.kind === 'http';
  const oauthTab = remote || info?.config.kind === 'stdio';
  // A watched session (tap, gateway): Loupe lists nothing there, and its listing tabs say why.
  const relay = info?.relay;
  const chosen = useMainTab() as TabId;
  const tab: TabId = chosen === 'oauth' && !oauthTab ? 'tools' : chosen;
  const setTab = (id: TabId) => nav.show(id);
  const tools = useToolList();
  const resources = useResourceList();
  const prompts = usePromptList();
  const activeTasks = useActiveTaskCount();
  const savedCalls = useSavedCallCount();
  const collections = useLoupeSelector((s) => s.workspace?.collections?.length ?? 0);
  const held = useHeldCount();
  const tabs: TabSpec<TabId>[] = [
    // Grouped (issue 26): a divider between groups; the row never wraps, `More` lists what it cannot show.
    { id: 'tools', label: 'Tools', group: 'Inspect', count: tools.status === 'done' ? tools.items.length : undefined },
    { id: 'resources', label: 'Resources', group: 'Inspect', count: resources.status === 'done' ? resources.items.length : undefined },
    { id: 'prompts', label: 'Prompts', group: 'Inspect', count: prompts.status === 'done' ? prompts.items.length : undefined },
    { id: 'saved-calls', label: 'Saved calls', group: 'Inspect', count: savedCalls > 0 ? savedCalls : undefined },
    { id: 'tests', label: 'Tests', group: 'Inspect', count: collections > 0 ? collections : undefined },
    { id: 'history', label: 'History', group: 'Observe' },
    { id: 'notifications', label: 'Notifications', group: 'Observe' },
    { id: 'tasks', label: 'Tasks', group: 'Observe', count: activeTasks > 0 ? activeTasks : undefined },
    { id: 'intercept', label: 'Intercept', group: 'Debug', count: held > 0 ? held : undefined },
    { id: 'doctor', label: 'Doctor', group: 'Debug' },
    ...(oauthTab ? [{ id: 'oauth' as const, label: 'OAuth', group: 'Debug' }] : []),
    { id: 'playground', label: 'Playground', group: 'Play' },
  ];
  const listing = tab === 'tools' || tab === 'resources' || tab === 'prompts';
  const Panel = tab === 'tools' || !active || (relay && listing) ? undefined : PANELS[tab];
  return (
    <div hidden={!active}>
      <Tabs<TabId> label="Main" tabs={tabs} selected={tab} onSelect={setTab}>
        {relay ? (
          listing && <RelayNote relay={relay} />
        ) : (
          <div hidden={tab !== 'tools'}>
            <ToolsContainer />
          </div>
        )}
        {Panel && <Panel />}
      </Tabs>
    </div>
  );
}

/** The sessions shown so far (their models and Tools tabs are kept), in the order first shown. */
function useVisited(shown: string | undefined): readonly string[] {
  const sessions = useLoupeSelector((s) => s.sessions);
  const [visited, setVisited] = useState<readonly string[]>([]);
  useEffect(() => {
    setVisited((old) => {
      const kept = old.filter((id) => sessions[id]);
      const next = shown !== undefined && shown !== ALL_SERVERS && sessions[shown] && !kept.includes(shown) ? [...kept, shown] : kept;
      return next.length === old.length && next.every((id, i) => id === old[i]) ? old : next;
    });
  }, [sessions, shown]);
  return visited;
}

/** Tell the proxy which sessions this tab shows: full events for those only (issue 9, subscribe). */
function useSubscription(shown: string | undefined): void {
  const { sessions } = useServices();
  useEffect(() => {
    sessions.show(shown === ALL_SERVERS ? 'all' : shown === undefined ? [] : [shown]);
  }, [sessions, shown]);
}

function ServerViews({ shown }: { shown: string | undefined }): ReactNode {
  const { sessions } = useServices();
  const visited = useVisited(shown);
  useSubscription(shown);
  return (
    <>
      {shown === ALL_SERVERS && <AllServersView />}
      {shown === undefined && <Note>No server yet: add one with Add server, or connect one in the connection panel.</Note>}
      {visited.map((id) => (
        <SessionContext.Provider key={id} value={sessions.get(id)}>
          <MainTabs active={id === shown} />
        </SessionContext.Provider>
      ))}
    </>
  );
}

function Shell(): ReactNode {
  const services = useServices();
  const theme = useTheme();
  const shown = useSelectedServer();
  const open = useSideColumnOpen();
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLinks />
      <TopBar dark={theme === 'dark'} onToggleTheme={() => services.theme.toggle()} />
      <Banners />
      <Workbench />
      <main className={`grid flex-1 gap-4 p-4 ${sideColumns(open)}`}>
        <SideColumn shown={shown} />
        <div className="min-w-0">
          <PendingContainer />
          <ServerViews shown={shown} />
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
