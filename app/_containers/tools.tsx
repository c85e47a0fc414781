'use client';
/**
 * The Tools tab: the list, the selected tool's form (starting from its last arguments), the latest
 * result of that tool, every other call still in flight, and under the result the MCP Apps view of
 * that tool's latest call (issue 24). A view stays mounted, hidden, while another tool is selected:
 * its sandbox keeps running, as it does while another tab is shown.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ListStatus } from '@/components/ui/list-status.tsx';
import { ResultView } from '@/components/results/view.tsx';
import { ToolCalls } from '@/components/tools/calls.tsx';
import { ToolForm } from '@/components/tools/form.tsx';
import { ToolList } from '@/components/tools/list.tsx';
import { keepAllowedArguments } from '../../lib/schema/keep-allowed.ts';
import { Note, Panel } from '@/components/ui/ui.tsx';
import type { ToolEntry } from '../../lib/schema/tool-schema.ts';
import { viewUriOf } from '../../lib/apps/meta.ts';
import { taskHandle } from '../../lib/client/tasks.ts';
import { serverKey } from '../_stores/args-store.ts';
import type { ToolCall } from '../_stores/call-store.ts';
import type { ToolSelection as Selection } from '../_session/model.ts';
import { argumentsOf, useSaveCall } from './saved-calls.tsx';
import { runTool, ToolTaskStatus, ToolTaskSwitch, useResultTask, useTaskFollowedCall } from './tool-task.tsx';
import { SlotView } from './view-slot.tsx';
import { CallInterceptionNote } from './call-interception.tsx';
import { SaveResultAsTest } from './save-as-test.tsx';
import { useArgsVersion } from '../_hooks/use-primitives.ts';
import { useCall, useServices, useSession, useSessionInfo, useToolList } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';
import { SplitPane } from '@/components/ui/splitter.tsx';
import { usePaneSize } from '../_hooks/use-layout.ts';

/** Selection by name survives a re-list; the index tells duplicate names apart. */
function selectedIndex(items: readonly ToolEntry[], selected: Selection | undefined): number {
  if (selected === undefined) return -1;
  if (items[selected.index]?.name === selected.name) return selected.index;
  return items.findIndex((t) => t.name === selected.name);
}

function latestCallOf(calls: readonly ToolCall[], tool: string | undefined): ToolCall | undefined {
  for (let i = calls.length - 1; i >= 0; i--) if (calls[i].tool === tool) return calls[i];
  return undefined;
}

const argsObject = (args: unknown): Record<string, unknown> => (args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {});

/**
 * Once a call of a tool that links a view has its result, the view is opened (the store does
 * nothing for a call whose view it shows already). `latest`: the call as the call store has it;
 * `shown` may carry the result of the task the call became instead.
 */
function useOpenView(tool: ToolEntry | undefined, shown: ToolCall | undefined, latest: ToolCall | undefined): void {
  const { apps } = useServices();
  useEffect(() => {
    if (!tool || !shown || shown.status !== 'done' || !shown.outcome?.ok || viewUriOf(tool.raw) === undefined) return;
    const result = shown.outcome.result;
    // A task's handle is not the tool's result: the view waits for the task's.
    if (taskHandle(result)) return;
    const fromResponse = shown === latest;
    apps.open({ session: shown.session, tool: tool.name, callId: fromResponse ? shown.id : `${shown.id}:task`, input: argsObject(shown.args), result, fromResponse });
  }, [apps, tool, shown, latest]);
}

/** The views of this session's tools: the selected tool's is shown, the others stay mounted and hidden. */
function ToolViews({ session, selected }: { session: string; selected?: string }): ReactNode {
  const { apps } = useServices();
  const { slots } = useStore(apps);
  return Object.entries(slots)
    .filter(([, slot]) => slot.session === session)
    .map(([key, slot]) => (
      <div key={key} hidden={slot.tool !== selected}>
        <SlotView slotKey={key} slot={slot} />
      </div>
    ));
}

/** The list pane, left of its splitter: the list's status and the tools. */
function ToolListPane({ index, onSelect }: { index: number; onSelect(i: number): void }): ReactNode {
  const model = useSession();
  const list = useToolList();
  return (
    <Panel title="Tools" className="flex min-h-0 min-w-0 flex-col lg:max-h-[calc(100vh-9rem)]">
      <ListStatus what="tools" status={list.status} pages={list.pages} note={list.note} error={list.error} problems={list.problems} changes={list.changes} fetches={list.fetches} cache={list.cache} servedFromCache={list.servedFromCache} onFetchAgain={list.onFetchAgain} onRefresh={() => model.tools.refresh()} />
      <div className="mt-2 flex min-h-0 flex-1 flex-col">
        <ToolList tools={list.items} selected={index >= 0 ? index : undefined} onSelect={onSelect} />
      </div>
    </Panel>
  );
}

/**
 * A tool chosen in the list hands the focus to its form's first field (issue 26). Spent in a ref,
 * not state: a render after it would show the form's draft as typed, not as remembered.
 */
function useFocusRequest() {
  const [focusFor, setFocusFor] = useState<{ name: string; token: number }>();
  const spent = useRef(0);
  return {
    request: (name: string) => setFocusFor({ name, token: Date.now() }),
    tokenFor: (name: string) => (focusFor?.name === name && focusFor.token > spent.current ? focusFor.token : undefined),
    onFocused: () => { spent.current = focusFor?.token ?? 0; },
  };
}

/** A resource link in a result opens the Resources tab on that URI. */
function useOpenResource(): (uri: string) => void {
  const services = useServices();
  const model = useSession();
  return (uri) => {
    services.nav.show('resources');
    void model.resourceView.read(uri, 'link');
  };
}

export function ToolsContainer(): ReactNode {
  const services = useServices();
  const model = useSession();
  const list = useToolList();
  const { calls, settings } = useCall();
  const session = useSessionInfo();
  useArgsVersion();
  const saveCall = useSaveCall();
  // Kept in the session's model: switching servers and back finds the same tool selected.
  const selected = useStore(model.selectedTool);
  const setSelected = (next: Selection) => model.selectedTool.set(next);
  const focus = useFocusRequest();
  const selectByName = (name: string, i = list.items.findIndex((t) => t.name === name)) => i >= 0 && setSelected({ name, index: i });
  const index = selectedIndex(list.items, selected);
  const tool = index >= 0 ? list.items[index] : undefined;
  const connected = session?.status === 'connected';
  const server = session ? serverKey(session) : '';
  const remembered = tool ? services.args.recall(server, tool.name) : undefined;
  // What was typed and not run yet comes first, cut to what the tool's schema (changed by a restart, say) still allows.
  const draft = tool ? model.toolDrafts.get(tool.name) : undefined;
  const start = draft !== undefined ? keepAllowedArguments(draft, tool?.inputSchema) : remembered;
  // A call the server made a task (2026-07-28) shows the result the task carries once it ends.
  const latest = latestCallOf(calls, tool?.name);
  const shown = useTaskFollowedCall(latest);
  const task = useResultTask(tool?.name);
  useOpenView(tool, shown, latest);
  const elsewhere = calls.filter((c) => c.status === 'running' && c !== shown);
  const openResource = useOpenResource();
  return (
    <SplitPane label="Resize tool list" sized="first" defaultSize={320} min={192} max={640} otherMin={320} {...usePaneSize('tools.list')} className="min-h-0">
      <ToolListPane index={index} onSelect={(i) => {
        setSelected({ name: list.items[i].name, index: i });
        focus.request(list.items[i].name);
      }} />
      <div className="min-w-0 space-y-3">
        <ToolCalls calls={elsewhere} onCancel={(id) => model.call.cancel(id)} onShow={(name) => selectByName(name)} />
        <Panel>
          {tool ? (
            <ToolForm
              // Keyed by name (and which of same-named tools), not position: a re-list that adds or
              // reorders tools must not wipe what the user is typing. Not by server either: each
              // session has its own container (session-registry.ts), and a reconnect must not wipe it.
              key={`${tool.name}#${list.items.slice(0, index).filter((t) => t.name === tool.name).length}:${JSON.stringify(tool.inputSchema) ?? ''}`}
              tool={tool}
              initialArgs={start}
              remembered={draft === undefined && remembered !== undefined}
              onDraft={(data) => model.toolDrafts.set(tool.name, data)}
              focusToken={focus.tokenFor(tool.name)}
              onFocused={focus.onFocused}
              canRun={connected}
              cannotRunReason={!connected ? 'Connect to run tools' : undefined}
              settings={settings}
              onSettings={(next) => model.call.setSettings(next)}
              onRun={(args) => {
                if (!session) return;
                services.args.remember(server, tool.name, args);
                runTool(model, tool, args);
              }}
              onReset={() => {
                services.args.forget(server, tool.name);
                model.toolDrafts.delete(tool.name);
              }}
              onSaveCall={(args, name) => {
                const checked = argumentsOf(args);
                return checked.ok ? saveCall({ name, kind: 'tool', target: tool.name, arguments: checked.value }) : checked.error;
              }}
            />
          ) : (
            <Note>{list.items.length > 0 ? 'Select a tool to fill in its arguments.' : 'Tools appear here once the server lists them.'}</Note>
          )}
          {tool && <ToolTaskSwitch tool={tool} />}
        </Panel>
        {tool && <ToolTaskStatus tool={tool} />}
        <ResultView call={shown} task={task} interception={latest && <CallInterceptionNote call={latest} />} output={tool?.output} onCancel={shown ? () => model.call.cancel(shown.id) : undefined} onOpenResource={openResource} actions={<SaveResultAsTest call={shown} />} />
        <ToolViews session={model.id} selected={tool?.name} />
      </div>
    </SplitPane>
  );
}
