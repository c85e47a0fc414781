/**
 * MCP Apps' messages (issue 24, lib/wire/apps.ts): a tab opens a tool result's view, relays what
 * the sandbox posts, changes the host context, replays input and result, closes the view. The host
 * side of each view is a ViewHost (proxy/apps/view-host.ts); the sandbox's origin is a second
 * loopback server (proxy/apps/sandbox-server.ts), started with the first view. A view belongs to
 * the tab that opened it: only that tab's messages reach it, and it is closed when the tab goes.
 */
import type { WebSocket } from 'ws';
import type { ClientMessage } from '../../../lib/wire/wire.ts';
import type { AppOpenMessage } from '../../../lib/wire/apps.ts';
import type { HubContext } from './context.ts';
import { SandboxServer } from '../../apps/sandbox-server.ts';
import { isLoopbackAddress } from '../../listen/security.ts';
import type { ViewHost } from '../../apps/view-host.ts';

const APPS_TYPES = new Set(['app-open', 'app-frame', 'app-context', 'app-replay', 'app-answer', 'app-close'] as const);
type AppsType = typeof APPS_TYPES extends Set<infer T> ? T : never;
export type AppsMessage = Extract<ClientMessage, { type: AppsType }>;

export function isAppsMessage(message: ClientMessage): message is AppsMessage {
  return APPS_TYPES.has(message.type as AppsType);
}

/**
 * The view's host and its bridge load with the first view (issue 23: start-up loads only what
 * the first screen needs).
 */
let viewHosts: Promise<typeof import('../../apps/view-host.ts')> | undefined;
let preparing: Promise<typeof import('../../apps/prepare.ts')> | undefined;
const hostModule = () => (viewHosts ??= import('../../apps/view-host.ts'));
const prepareModule = () => (preparing ??= import('../../apps/prepare.ts'));

interface AppsState {
  sandbox?: Promise<SandboxServer>;
  views: Map<string, { host: ViewHost; ws: WebSocket }>;
  next: number;
}

const stateByHub = new WeakMap<HubContext, AppsState>();

function stateOf(hub: HubContext): AppsState {
  let state = stateByHub.get(hub);
  if (!state) stateByHub.set(hub, (state = { views: new Map(), next: 1 }));
  return state;
}

function sandboxOf(state: AppsState): Promise<SandboxServer> {
  return (state.sandbox ??= SandboxServer.start((view, violation) => state.views.get(view)?.host.cspViolation(violation)));
}

/** Loupe's page is on a loopback http origin; nothing else may be the sandbox's host. */
function loopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && url.origin === origin && isLoopbackAddress(url.hostname);
  } catch {
    return false;
  }
}

export async function dispatchApps(hub: HubContext, ws: WebSocket, message: AppsMessage): Promise<void> {
  const state = stateOf(hub);
  if (message.type === 'app-open') return open(hub, ws, state, message);
  const entry = state.views.get(message.view);
  // Refusals name the view they are about: the page shows each beside its view, never beside another.
  const problem = (text: string) => hub.sendTo(ws, { type: 'app-problem', view: message.view, message: text });
  if (!entry || entry.ws !== ws) return problem(`No view ${message.view} is open in this tab.`);
  switch (message.type) {
    case 'app-frame':
      return entry.host.receive(message.text);
    case 'app-context':
      return entry.host.setContext(message.context);
    case 'app-replay':
      try {
        await entry.host.replay(message.input, message.result);
      } catch (error) {
        problem(error instanceof Error ? error.message : String(error));
      }
      return;
    case 'app-answer':
      return entry.host.answer(message.ask, message.approve);
    case 'app-close':
      return close(state, message.view, message.reason ?? 'Closed in Loupe.');
  }
}

async function open(hub: HubContext, ws: WebSocket, state: AppsState, message: AppOpenMessage): Promise<void> {
  const reply = (body: Record<string, unknown>) => hub.sendTo(ws, { type: 'app-opened', requestId: message.requestId, ...body });
  if (!loopbackOrigin(message.hostOrigin)) return reply({ error: { code: 'BAD_MESSAGE', message: 'A view’s host must be Loupe’s own page.' } });
  const session = hub.engine.session(message.session);
  if (!session) return reply({ error: { code: 'NO_SESSION', message: `No session ${message.session}.` } });
  const id = `v${state.next++}`;
  const [sandbox, { prepareView }, { ViewHost }] = await Promise.all([sandboxOf(state), prepareModule(), hostModule()]);
  const prepared = await prepareView(session, message, id, sandbox);
  if ('code' in prepared) return reply({ error: prepared });
  try {
    const host = await ViewHost.open(prepared, session, {
      post: (text) => hub.sendTo(ws, { type: 'app-frame', view: id, text }),
      changed: (viewState) => hub.sendTo(ws, { type: 'app-state', state: viewState }),
      download: (ask, files) => hub.sendTo(ws, { type: 'app-download', view: id, ask, files }),
    });
    state.views.set(id, { host, ws });
    watchTab(ws, state);
    reply({ state: host.state() });
  } catch (error) {
    sandbox.remove(id);
    reply({ error: { code: 'VIEW', message: `The view could not be opened: ${error instanceof Error ? error.message : String(error)}` } });
  }
}

const tabsWatched = new WeakSet<WebSocket>();

/** A tab that goes takes its views with it. */
function watchTab(ws: WebSocket, state: AppsState): void {
  if (tabsWatched.has(ws)) return;
  tabsWatched.add(ws);
  ws.once('close', () => {
    for (const [id, entry] of state.views) if (entry.ws === ws) void close(state, id, 'The tab was closed.');
  });
}

const closing = new WeakSet<ViewHost>();

/** The view hears `ui/resource-teardown` and may answer it (it is still reachable), then it goes. */
async function close(state: AppsState, id: string, reason: string): Promise<void> {
  const entry = state.views.get(id);
  if (!entry || closing.has(entry.host)) return;
  closing.add(entry.host);
  await entry.host.close(reason);
  state.views.delete(id);
  (await state.sandbox)?.remove(id);
}

/** Closes every view and the sandbox's server (Loupe is stopping, or a test is done). */
export async function closeApps(hub: HubContext): Promise<void> {
  const state = stateByHub.get(hub);
  if (!state) return;
  await Promise.all([...state.views.keys()].map((id) => close(state, id, 'Loupe is stopping.')));
  await (await state.sandbox)?.close();
}
