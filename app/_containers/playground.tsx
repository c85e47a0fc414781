'use client';
/**
 * The Playground tab (issue 15): wires the store (playground-store.ts) to the connected servers'
 * tool lists (relay sessions excluded: Loupe cannot call tools on a session it only watches), and
 * to History — a step's `tools/call in History` selects the tool's server and the frame the
 * proxy sent with that JSON-RPC id, `Provider exchange in History` the exchange's own row. The
 * frame may arrive only once the page subscribes to that server, so the link waits for it.
 * The model list is fetched only when the person presses `List models`: Loupe makes no call to a
 * provider on its own, not even when the tab opens. A call whose tool links an MCP Apps view shows
 * that view under its Observe (playground-views.tsx).
 */
import { useMemo, type ReactNode } from 'react';
import { downloadData } from '@/components/ui/download.ts';
import { ConversationView } from '@/components/playground/conversation.tsx';
import { Composer, LoopSettings, ServerChoices, type ServerChoice } from '@/components/playground/controls.tsx';
import { ProviderFields } from '@/components/playground/settings.tsx';
import { ViewTabs, viewPanelId, viewTabId } from '@/components/playground/view-tabs.tsx';
import { Panel } from '@/components/ui/ui.tsx';
import { buildToolset, type PlaygroundTool } from '../../lib/playground/types.ts';
import type { TraceEvent } from '../../lib/wire/wire.ts';
import type { LoupeServices } from '../_session/loupe-services.ts';
import type { ListState } from '../_stores/list-store.ts';
import { keySource, type PlaygroundState, type PlaygroundStore, type ProviderSettings, type SendContext } from '../_stores/playground-store.ts';
import type { RunState } from '../_stores/playground-run.ts';
import { serverName } from './servers.tsx';
import { useConversationViews, useToolsBySession, useViewOf } from './playground-views.tsx';
import { EvalsContainer } from './playground-evals.tsx';
import { useLoupeSelector, useServices } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';
import { useToolLists } from '../_hooks/use-tool-lists.ts';

/** How long a History link waits for its row to reach the page (the subscription's trace-reset). */
const REVEAL_WAIT_MS = 10_000;

/** Show the server's History and select the row `find` picks, now or once its events arrive. */
export function revealInHistory(services: LoupeServices, session: string, find: (events: readonly TraceEvent[]) => number | undefined): void {
  services.selected.set(session);
  services.nav.show('history');
  const model = services.sessions.get(session);
  if (model.trace.getSnapshot().readOnly) model.trace.setSource('live');
  const attempt = () => {
    const seq = find(model.port.log.events);
    if (seq !== undefined) model.trace.reveal(seq);
    return seq !== undefined;
  };
  if (attempt()) return;
  const offs = [model.port.onReset(() => attempt() && stop()), model.port.onEvents(() => attempt() && stop())];
  const timer = setTimeout(() => stop(), REVEAL_WAIT_MS);
  function stop(): void {
    clearTimeout(timer);
    offs.forEach((off) => off());
  }
}

const frameOf = (rpcId: string | number) => (events: readonly TraceEvent[]) =>
  events.find((e) => e.kind === 'frame' && e.dir === 'out' && e.method === 'tools/call' && e.id === rpcId)?.seq;
export const seqOf = (seq: number) => (events: readonly TraceEvent[]) => (events.some((e) => e.seq === seq) ? seq : undefined);

function listWords(list: ListState<unknown>): string {
  if (list.status === 'done') return `${list.items.length} tool${list.items.length === 1 ? '' : 's'}`;
  if (list.status === 'unsupported') return 'offers no tools';
  if (list.status === 'error') return `listing tools failed (${list.error ?? 'unknown error'})`;
  return 'listing tools…';
}

/** The connected servers Loupe can call, their tools as the model sees them, and where each lives. */
function usePlaygroundTools(store: PlaygroundStore) {
  const services = useServices();
  const { excluded } = useStore(store);
  const infos = useLoupeSelector((s) => s.sessions);
  const order = useLoupeSelector((s) => s.order);
  const ids = order.filter((id) => infos[id]?.status === 'connected' && !infos[id]?.relay);
  const models = useMemo(() => ids.map((id) => services.sessions.get(id)), [services, ids.join('\n')]);
  const lists = useToolLists(models);
  return useMemo(() => {
    const taken = new Set<string>();
    const servers: (ServerChoice & { raw: readonly unknown[] })[] = models.map((model, i) => {
      const base = serverName(infos[model.id]!);
      let name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
      taken.add(name);
      return { session: model.id, name, offered: !excluded.includes(model.id), words: listWords(lists[i]), raw: lists[i].items.map((e) => e.raw) };
    });
    const offered = servers.filter((s) => s.offered);
    const { tools, notes } = buildToolset(offered.map((s) => ({ name: s.name, tools: s.raw })));
    const sessions = Object.fromEntries(offered.map((s) => [s.name, s.session]));
    const record = offered[0]?.session ?? servers[0]?.session;
    const ctx: SendContext | undefined = record === undefined ? undefined : { tools, sessions, record };
    return { servers, notes, tools, ctx };
  }, [models, lists, infos, excluded]);
}

function keyWords(settings: ProviderSettings, keys: Parameters<typeof keySource>[1]): string {
  if (settings.keyPending) return 'Handing the key to Loupe…';
  const source = keySource(settings, keys);
  if (source.kind === 'typed') return 'Using the key you typed, held in Loupe’s memory only.';
  if (source.kind === 'env') return `Using ${source.name} from Loupe's environment`;
  if (source.kind === 'typed-elsewhere') return `The key you typed was for ${source.origin}: type it again for this base URL.`;
  return 'No key: paste one, or leave it empty for a local server that takes none.';
}

function modelsNote(settings: ProviderSettings): string | undefined {
  const list = settings.models;
  if (!list) return undefined;
  if (list.status === 'loading') return 'Asking the endpoint for its models…';
  if (list.status === 'error') return `The endpoint gave no model list (${list.error ?? 'no reason given'}): type the model’s name.`;
  return list.ids.length > 0 ? `${list.ids.length} models offered by the endpoint (pick one below the field, or type any name).` : 'The endpoint lists no models: type the model’s name.';
}

function Provider({ store, which }: { store: PlaygroundStore; which: 0 | 1 }): ReactNode {
  const { providers, keys } = useStore(store);
  const s = providers[which];
  const source = keySource(s, keys);
  return (
    <ProviderFields
      prefix={which === 0 ? '' : 'Second '}
      kind={s.kind}
      baseUrl={s.baseUrl}
      model={s.model}
      keyWords={keyWords(s, keys)}
      keyError={s.keyError}
      keyPending={s.keyPending !== undefined}
      canForget={source.kind === 'typed'}
      models={s.models?.ids ?? []}
      modelsNote={modelsNote(s)}
      onKind={(kind) => store.setKind(which, kind)}
      onBaseUrl={(baseUrl) => store.setProvider(which, { baseUrl })}
      listingModels={s.models?.status === 'loading'}
      onListModels={() => store.fetchModels(which, true)}
      onKey={(key) => store.setKey(which, key)}
      onForget={() => store.forgetKey(which)}
      onModel={(model) => store.setProvider(which, { model })}
    />
  );
}

function Conversation({ store, which, run, ctx }: { store: PlaygroundStore; which: 0 | 1; run: RunState; ctx: SendContext | undefined }): ReactNode {
  const services = useServices();
  const { providers } = useStore(store);
  const viewOf = useViewOf(which, run, ctx);
  return (
    <ConversationView
      label={which === 0 ? 'Conversation' : 'Conversation (second model)'}
      model={providers[which].model}
      loop={run.loop}
      streaming={run.streaming}
      hasExchange={(turn) => run.exchanges[turn] !== undefined}
      hasFrame={(callId) => run.links[callId]?.rpcId !== undefined}
      onShowExchange={(turn) => {
        const exchange = run.exchanges[turn];
        if (exchange) revealInHistory(services, exchange.session, seqOf(exchange.seq));
      }}
      onShowFrame={(callId) => {
        const link = run.links[callId];
        if (link?.rpcId !== undefined) revealInHistory(services, link.session, frameOf(link.rpcId));
      }}
      onDecide={(callId, decision) => store.decide(which, callId, decision)}
      viewOf={viewOf}
    />
  );
}

function exportFile(store: PlaygroundStore, tools: readonly PlaygroundTool[]): void {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  downloadData(store.exportText(tools), `playground-${stamp}.json`, 'application/json');
}

export function PlaygroundContainer(): ReactNode {
  const { playground: store, evals } = useServices();
  const state = useStore(store);
  // Chat or Evals (issue 27): the settings and the servers above serve both.
  const { view } = useStore(evals);
  const first = useStore(store.runs[0]);
  const second = useStore(store.runs[1]);
  const { servers, notes, tools, ctx } = usePlaygroundTools(store);
  // Both conversations', whether shown or not: turning Compare off clears the second, and closes its views.
  const toolsBySession = useToolsBySession(servers);
  useConversationViews(0, first, toolsBySession);
  useConversationViews(1, second, toolsBySession);
  const running = [first, ...(state.compare ? [second] : [])].some((r) => ['awaiting-model', 'awaiting-approval', 'calling-tool'].includes(r.loop.status));
  return (
    <div className="space-y-3">
      <ViewTabs view={view} onView={(next) => evals.show(next)} />
      <Panel label="Playground settings" title="Playground">
        <div className="space-y-3">
          <ProviderSettingsBlock store={store} compare={state.compare} />
          <ServerChoices servers={servers} notes={notes} onChange={(session, on) => store.setServer(session, on)} />
          {view === 'chat' && <ChatControls store={store} state={state} running={running} ctx={ctx} tools={tools} first={first} />}
        </div>
      </Panel>
      <div role="tabpanel" id={viewPanelId(view)} aria-labelledby={viewTabId(view)}>
        {view === 'evals' ? (
          <EvalsContainer ctx={ctx} />
        ) : (
          <div className={state.compare ? 'grid gap-3 xl:grid-cols-2' : ''}>
            <Conversation store={store} which={0} run={first} ctx={ctx} />
            {state.compare && <Conversation store={store} which={1} run={second} ctx={ctx} />}
          </div>
        )}
      </div>
    </div>
  );
}

interface ChatControlsProps {
  store: PlaygroundStore;
  state: PlaygroundState;
  running: boolean;
  ctx: SendContext | undefined;
  tools: readonly PlaygroundTool[];
  first: RunState;
}

/** The chat's own settings and the message box. */
function ChatControls({ store, state, running, ctx, tools, first }: ChatControlsProps): ReactNode {
  return (
    <>
      <LoopSettings
        system={state.system}
        approveEvery={state.options.approveEvery}
        autoApproveReadOnly={state.options.autoApproveReadOnly}
        maxSteps={state.options.maxSteps}
        compare={state.compare}
        onSystem={(text) => store.setSystem(text)}
        onApproveEvery={(on) => store.setOptions({ approveEvery: on })}
        onReadOnly={(on) => store.setOptions({ autoApproveReadOnly: on })}
        onMaxSteps={(maxSteps) => store.setOptions({ maxSteps })}
        onCompare={(on) => store.setCompare(on)}
      />
      <Composer
        running={running}
        problem={store.sendProblem(ctx)}
        canExport={first.loop.messages.length > 0}
        canRerun={state.imported !== undefined || first.loop.messages.some((m) => m.role === 'user')}
        imported={state.imported?.name}
        importError={state.importError}
        onSend={(text) => (ctx ? store.send(text, ctx) : false)}
        onStop={() => store.stop()}
        onClear={() => store.clear()}
        onExport={() => exportFile(store, tools)}
        onImport={(name, text) => store.importText(name, text)}
        onRerun={() => ctx && store.rerun(ctx)}
      />
    </>
  );
}

function ProviderSettingsBlock({ store, compare }: { store: PlaygroundStore; compare: boolean }): ReactNode {
  return (
    <div className={compare ? 'grid gap-3 xl:grid-cols-2' : ''}>
      <Provider store={store} which={0} />
      {compare && <Provider store={store} which={1} />}
    </div>
  );
}
