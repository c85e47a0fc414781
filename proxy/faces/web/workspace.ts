/**
 * The workspace messages of the wire protocol (issue 9, lib/wire/wire.ts): servers added, edited,
 * removed and restarted from the page; the tab's subscriptions; saved calls, queries, test
 * collections and model evals; answers to `${input:}` prompts; saving the workspace file; the hosts' config files
 * to import from.
 */
import type { WebSocket } from 'ws';
import type { ClientMessage } from '../../../lib/wire/wire.ts';
import { serializeWorkspace } from '../../../lib/workspace/serialize.ts';
import { currentContext, knownLocations, listConfigLocations } from '../../system/config-locations.ts';
import type { HubContext } from './context.ts';
import { saveWorkspaceFile } from '../../engine/workspace-file.ts';

const WORKSPACE_TYPES = new Set([
  'add-server',
  'update-server',
  'remove-server',
  'restart',
  'subscribe',
  'save-workspace',
  'set-saved-calls',
  'set-saved-queries',
  'set-collections',
  'set-evals',
  'provide-inputs',
  'list-config-locations',
] as const);

type WorkspaceType = typeof WORKSPACE_TYPES extends Set<infer T> ? T : never;
export type WorkspaceMessage = Extract<ClientMessage, { type: WorkspaceType }>;

export function isWorkspaceMessage(message: ClientMessage): message is WorkspaceMessage {
  return WORKSPACE_TYPES.has(message.type as WorkspaceType);
}

export async function dispatchWorkspace(hub: HubContext, ws: WebSocket, message: WorkspaceMessage): Promise<void> {
  switch (message.type) {
    case 'add-server':
      return addServer(hub, ws, message);
    case 'update-server':
      return hub.withSession(ws, message.session, async (session) => {
        const live = session.status === 'connected' || session.status === 'connecting';
        hub.engine.model.update(session.id, message);
        session.setView(hub.engine.model.view(session.id)!);
        hub.broadcastWorkspace();
        if (live) await hub.engine.start(session, { clientCapabilities: message.clientCapabilities });
        else session.announce();
      });
    case 'remove-server':
      return hub.withSession(ws, message.session, (session) => hub.engine.removeSession(session.id));
    case 'restart':
      return hub.withSession(ws, message.session, (session) => hub.engine.restart(session, 'Restart in the page'));
    case 'subscribe':
      return hub.subscribe(ws, message.sessions);
    case 'set-saved-calls':
      if (!hub.engine.model.setSavedCalls(message.session, message.calls)) return hub.sendError(ws, { code: 'NO_SESSION', message: `No session ${message.session}.` });
      return hub.broadcastWorkspace();
    case 'set-saved-queries':
      hub.engine.model.setSavedQueries(message.queries);
      return hub.broadcastWorkspace();
    case 'set-collections': {
      // Read as a collection file's list is: a bad one changes nothing and says where it is wrong.
      // Loaded on the first one: the readers (and their schemas) are not on the way to the first screen.
      const { readCollections } = await import('../../../lib/collections/read.ts');
      const read = readCollections(message.collections, 'collections');
      if (!read.ok) return hub.sendError(ws, { code: 'BAD_MESSAGE', message: `The collections were not saved: ${read.error}` });
      hub.engine.model.setCollections(read.collections);
      return hub.broadcastWorkspace();
    }
    case 'set-evals': {
      // Read as an eval file is (issue 27): a bad one changes nothing and says where it is wrong.
      const { readEvalData } = await import('../../../lib/evals/schema.ts');
      const read = readEvalData(message.evals);
      if (!read.ok) return hub.sendError(ws, { code: 'BAD_MESSAGE', message: `The evals were not saved: ${read.error}` });
      hub.engine.model.setEvals(read.file);
      return hub.broadcastWorkspace();
    }
    case 'provide-inputs':
      return provideInputs(hub, message.values);
    case 'save-workspace':
      return saveWorkspace(hub, ws, message);
    case 'list-config-locations': {
      const locations = await listConfigLocations(currentContext(hub.engine.cwd));
      return hub.sendTo(ws, { type: 'config-locations', requestId: message.requestId, locations });
    }
  }
}

async function addServer(hub: HubContext, ws: WebSocket, message: Extract<WorkspaceMessage, { type: 'add-server' }>): Promise<void> {
  const { config, secretEnv, secretHeaders, clientCapabilities, roots, serverRequestTimeoutMs, connectTimeoutMs, disabled, other, savedCalls } = message;
  const session = hub.engine.createSession(config, { secretEnv, secretHeaders, clientCapabilities, disabled, other, savedCalls });
  hub.engine.primary ??= session.id;
  session.announce();
  hub.sendTo(ws, { type: 'server-added', requestId: message.requestId, session: session.snapshot() });
  hub.broadcastWorkspace();
  if (message.connect !== false && disabled !== true) await hub.engine.start(session, { clientCapabilities, roots, serverRequestTimeoutMs, connectTimeoutMs });
}

/** Servers that waited for one of these inputs connect now. The values stay in proxy memory only. */
async function provideInputs(hub: HubContext, values: Record<string, string>): Promise<void> {
  hub.engine.model.provideInputs(values);
  const waiting = hub.engine.sessionList().filter((s) => (s.snapshot().waitingForInputs ?? []).some((id) => id in values));
  hub.broadcastWorkspace();
  await Promise.allSettled(waiting.map((s) => hub.engine.start(s)));
}

async function saveWorkspace(hub: HubContext, ws: WebSocket, message: Extract<WorkspaceMessage, { type: 'save-workspace' }>): Promise<void> {
  const { requestId } = message;
  const outcome = await saveWorkspaceFile({
    // Configs as written: secret values are references here, never values (workspace-model.ts).
    text: serializeWorkspace(hub.engine.model.toWorkspace()),
    given: message.path,
    currentPath: hub.engine.model.path,
    knownHash: hub.engine.model.diskHash,
    overwrite: message.overwrite === true,
    cwd: hub.engine.cwd,
    readOnly: knownLocations(currentContext(hub.engine.cwd)).map((l) => l.path),
  });
  if (outcome.ok) {
    hub.engine.model.path = outcome.path;
    hub.engine.model.diskHash = outcome.hash;
    hub.sendTo(ws, { type: 'workspace-saved', requestId, path: outcome.path });
    return hub.broadcastWorkspace();
  }
  if (outcome.conflict) return hub.sendTo(ws, { type: 'workspace-conflict', requestId, path: outcome.path, reason: outcome.reason });
  hub.sendError(ws, { ...outcome.error, detail: { ...outcome.error.detail, requestId } });
}
