/**
 * The workspace requests of the page (issue 9, items 4 and 5), each answered by a message carrying
 * its requestId: `save-workspace` → `workspace-saved` | `workspace-conflict` | `error` (the id in
 * `detail.requestId`); `list-config-locations` → `config-locations`. Failures are values.
 */
import type { WorkspaceServer } from '../../lib/workspace/workspace.ts';
import type { AddServerMessage, ConfigLocation, ServerMessage } from '../../lib/wire/wire.ts';
import type { LoupeStore } from '../_session/loupe-store.ts';
import { newRequestId } from '../_wire/request-outcome.ts';

export type SaveOutcome =
  | { ok: true; path: string }
  | { ok: false; conflict: { path: string; reason: string } }
  | { ok: false; error: string };

/** Long enough for a slow disk; only a proxy that never answers hits it. */
const ANSWER_MS = 30_000;

/** Send `message` (with a fresh requestId) and wait for the answer `pick` recognises. */
function ask<T>(app: LoupeStore, send: (requestId: string) => boolean, pick: (message: ServerMessage, requestId: string) => T | undefined, fallback: (why: string) => T): Promise<T> {
  const requestId = newRequestId();
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(fallback('Loupe did not answer within 30 s.')), ANSWER_MS);
    const off = app.onMessage((message) => {
      const answer = pick(message, requestId);
      if (answer !== undefined) finish(answer);
    });
    // A socket that drops loses the answer: say so rather than wait.
    const offSocket = app.subscribe(() => {
      if (!app.getSnapshot().synced) finish(fallback('The connection to Loupe dropped before the answer arrived.'));
    });
    function finish(value: T): void {
      clearTimeout(timer);
      off();
      offSocket();
      resolve(value);
    }
    if (!send(requestId)) finish(fallback('Not connected to Loupe; nothing was sent.'));
  });
}

/** `path` absent: the --config file, or the one saved to before. */
export function saveWorkspace(app: LoupeStore, path: string | undefined, overwrite: boolean): Promise<SaveOutcome> {
  return ask<SaveOutcome>(
    app,
    (requestId) => app.send({ type: 'save-workspace', requestId, ...(path !== undefined ? { path } : {}), ...(overwrite ? { overwrite } : {}) }),
    (message, requestId) => {
      if (message.type === 'workspace-saved' && message.requestId === requestId) return { ok: true, path: message.path };
      if (message.type === 'workspace-conflict' && message.requestId === requestId) return { ok: false, conflict: { path: message.path, reason: message.reason } };
      if (message.type === 'error' && message.error.detail?.requestId === requestId) return { ok: false, error: message.error.message };
      return undefined;
    },
    (error) => ({ ok: false, error }),
  );
}

export type LocationsOutcome = { ok: true; locations: ConfigLocation[] } | { ok: false; error: string };

/** The hosts' config files on this machine that exist (read-only). */
export function listConfigLocations(app: LoupeStore): Promise<LocationsOutcome> {
  return ask<LocationsOutcome>(
    app,
    (requestId) => app.send({ type: 'list-config-locations', requestId }),
    (message, requestId) => (message.type === 'config-locations' && message.requestId === requestId ? { ok: true, locations: message.locations } : undefined),
    (error) => ({ ok: false, error }),
  );
}

/**
 * Add each imported server (connecting it unless the file disables it). Its saved calls follow
 * once the proxy has made its session (`server-added` carries the id set-saved-calls needs).
 */
export function importServers(app: LoupeStore, servers: readonly WorkspaceServer[], defaults: Pick<AddServerMessage, 'clientCapabilities' | 'roots'>): boolean {
  return servers.every((server) => {
    const requestId = newRequestId();
    return app.addServer({
      config: { ...server.config, name: server.name },
      connect: !server.disabled,
      disabled: server.disabled,
      ...(server.other ? { other: server.other } : {}),
      ...(server.extras.savedCalls?.length ? { savedCalls: server.extras.savedCalls } : {}),
      secretEnv: server.secretEnv,
      secretHeaders: server.secretHeaders,
      clientCapabilities: server.extras.clientCapabilities ?? defaults.clientCapabilities,
      ...(defaults.roots ? { roots: defaults.roots } : {}),
      requestId,
    });
  });
}
