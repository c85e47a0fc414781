'use client';
/**
 * The aggregated tools of `All servers` (issue 9): every connected server's tools as
 * `server__tool` (lib/config/export.ts namespaceTools), searchable across servers; selecting one
 * shows that server's tool form, and Run tool runs it on that server (its model's call store,
 * so the call and its frames are that server's, as if run from its own Tools tab).
 */
import { useMemo, type ReactNode } from 'react';
import { AllToolsList, type AllToolsEntry } from '@/components/tools/all-tools-list.tsx';
import { ResultView } from '@/components/results/view.tsx';
import { ToolForm } from '@/components/tools/form.tsx';
import { Note, Panel } from '@/components/ui/ui.tsx';
import { namespaceTools } from '../../lib/config/export.ts';
import type { ToolEntry } from '../../lib/schema/tool-schema.ts';
import type { SessionInfo } from '../../lib/wire/wire.ts';
import { serverKey } from '../_stores/args-store.ts';
import type { ListState } from '../_stores/list-store.ts';
import type { LoupeServices } from '../_session/loupe-services.ts';
import { serverName } from './servers.tsx';
import { useToolLists } from '../_hooks/use-tool-lists.ts';
import { runTool, ToolTaskStatus, ToolTaskSwitch } from './tool-task.tsx';
import { useArgsVersion } from '../_hooks/use-primitives.ts';
import { SessionContext, useCall, useLoupeSelector, useServices, useSession, useSessionInfo } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';
import { ValueStore } from '../_stores/value-store.ts';

interface Chosen {
  session: string;
  tool: string;
  index: number;
}

/** The view's own state, kept while another server is shown. */
const states = new WeakMap<LoupeServices, { chosen: ValueStore<Chosen | undefined>; search: ValueStore<string> }>();

function stateOf(services: LoupeServices) {
  let state = states.get(services);
  if (!state) {
    state = { chosen: new ValueStore<Chosen | undefined>(undefined), search: new ValueStore('') };
    states.set(services, state);
  }
  return state;
}


/** The chosen tool by its position, else by name (a re-list may move it). */
function findChosen<T extends { session: string; tool: string; index: number }>(tools: readonly T[], chosen: Chosen | undefined): T | undefined {
  if (!chosen) return undefined;
  const same = (t: T) => t.session === chosen.session && t.tool === chosen.tool;
  return tools.find((t) => same(t) && t.index === chosen.index) ?? tools.find(same);
}

function listNote(name: string, info: SessionInfo, list: ListState<ToolEntry>): string | undefined {
  if (info.status !== 'connected') return `${name}: ${info.status === 'failed' ? 'failed' : info.status}, its tools are not listed.`;
  if (list.status === 'loading' || list.status === 'idle') return `${name}: listing tools…`;
  if (list.status === 'unsupported') return `${name}: offers no tools.`;
  if (list.status === 'error') return `${name}: listing tools failed (${list.error ?? 'unknown error'}).`;
  return undefined;
}

/** The selected tool's form and latest result, inside that server's SessionContext. */
function ToolPane({ tool, server }: { tool: ToolEntry; server: string }): ReactNode {
  const services = useServices();
  const model = useSession();
  const session = useSessionInfo();
  const { calls, settings } = useCall();
  useArgsVersion();
  const connected = session?.status === 'connected';
  const key = session ? serverKey(session) : '';
  const remembered = services.args.recall(key, tool.name);
  let shown;
  for (let i = calls.length - 1; i >= 0 && !shown; i -= 1) if (calls[i].tool === tool.name) shown = calls[i];
  return (
    <div className="min-w-0 space-y-3">
      <Panel label={`Tool form of ${server}`} title={`${tool.name} on ${server}`}>
        <ToolForm
          key={`${model.id}:${tool.name}:${JSON.stringify(tool.inputSchema) ?? ''}`}
          tool={tool}
          initialArgs={remembered}
          remembered={remembered !== undefined}
          canRun={connected}
          cannotRunReason={connected ? undefined : `Connect ${server} to run its tools`}
          settings={settings}
          onSettings={(next) => model.call.setSettings(next)}
          onRun={(args) => {
            services.args.remember(key, tool.name, args);
            runTool(model, tool, args);
          }}
          onReset={() => services.args.forget(key, tool.name)}
        />
        <ToolTaskSwitch tool={tool} />
      </Panel>
      <ToolTaskStatus tool={tool} />
      <ResultView call={shown} output={tool.output} onCancel={shown ? () => model.call.cancel(shown.id) : undefined} onOpenResource={() => undefined} />
    </div>
  );
}

export function AllToolsContainer(): ReactNode {
  const services = useServices();
  const { chosen: chosenStore, search: searchStore } = stateOf(services);
  const chosen = useStore(chosenStore);
  const search = useStore(searchStore);
  const infos = useLoupeSelector((s) => s.sessions);
  const order = useLoupeSelector((s) => s.order);
  const ids = order.filter((id) => infos[id]);
  const models = useMemo(() => ids.map((id) => services.sessions.get(id)), [services, ids.join('\n')]);
  const lists = useToolLists(models);
  const { entries, notes, tools } = useMemo(() => {
    const found: Array<{ server: string; tool: string; session: string; index: number; entry: ToolEntry }> = [];
    const said: string[] = [];
    models.forEach((model, m) => {
      const info = infos[model.id];
      if (!info) return;
      const name = serverName(info);
      const note = listNote(name, info, lists[m]);
      if (note) said.push(note);
      if (info.status === 'connected') lists[m].items.forEach((entry, index) => found.push({ server: name, tool: entry.name, session: model.id, index, entry }));
    });
    const named = namespaceTools(found);
    const rows: AllToolsEntry[] = named.map((n, i) => ({ key: `${found[i].session}#${found[i].index}`, name: n.name, server: n.server, tool: n.tool, title: found[i].entry.title, description: found[i].entry.description, problem: n.problem }));
    return { entries: rows, notes: said, tools: found };
  }, [models, lists, infos]);
  const picked = findChosen(tools, chosen);
  const select = (key: string) => {
    const t = tools.find((x) => `${x.session}#${x.index}` === key);
    if (!t) return;
    chosenStore.set({ session: t.session, tool: t.tool, index: t.index });
    // That server's own Tools tab shows the same tool when the user goes there.
    services.sessions.get(t.session).selectedTool.set({ name: t.tool, index: t.index });
  };
  return (
    <div className="grid min-h-0 gap-3 lg:grid-cols-[minmax(16rem,24rem)_minmax(0,1fr)]">
      <Panel label="All tools" title="Tools of every server" className="flex min-h-0 min-w-0 flex-col lg:max-h-[calc(100vh-9rem)]">
        <AllToolsList tools={entries} notes={notes} selected={picked ? `${picked.session}#${picked.index}` : undefined} search={search} onSearch={(text) => searchStore.set(text)} onSelect={select} />
      </Panel>
      {picked ? (
        <SessionContext.Provider value={services.sessions.get(picked.session)}>
          <ToolPane tool={picked.entry} server={picked.server} />
        </SessionContext.Provider>
      ) : (
        <Panel><Note>{entries.length > 0 ? 'Select a tool: it runs on its own server.' : 'Tools appear here once connected servers list them.'}</Note></Panel>
      )}
    </div>
  );
}
