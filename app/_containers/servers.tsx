'use client';
/**
 * The Servers panel wired to the tab (issue 9): the proxy's sessions as servers, selection as
 * navigation, and add / edit / connect / disconnect / restart / remove as wire messages. The
 * set comes from the proxy, so a second tab sees the same servers.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { InputsForm } from '@/components/servers/inputs-form.tsx';
import { ServerEditor } from '@/components/servers/editor.tsx';
import { ServersPanel, type ServerEntry } from '@/components/servers/panel.tsx';
import type { SessionInfo } from '../../lib/wire/wire.ts';
import { ALL_SERVERS } from '../_session/loupe-services.ts';
import { newRequestId } from '../_wire/request-outcome.ts';
import { useClientSettings, useLoupeSelector, useSelectedServer, useServices } from '../_hooks/use-loupe.ts';
import { useWorkspaceActions } from './workspace.tsx';

/** The server's name as the proxy knows it (unique), else what the config or the target says. */
export function serverName(session: SessionInfo): string {
  return session.name || session.config.name || (session.config.kind === 'stdio' ? session.config.command : session.config.url);
}

function entryOf(session: SessionInfo): ServerEntry {
  return {
    id: session.id,
    name: serverName(session),
    transport: session.transport ?? (session.config.kind === 'stdio' ? 'stdio' : session.config.transport === 'sse' ? 'sse' : 'http'),
    status: session.status,
    reason: session.error && session.error.code !== 'CANCELLED' ? session.error.message : undefined,
    disabled: session.disabled,
    relay: session.relay && { kind: session.relay.kind, label: session.relay.label },
  };
}

type Editing = { mode: 'add' } | { mode: 'edit'; id: string } | undefined;

/** Select the server a request of this tab added, once the proxy says it exists. */
function useSelectAdded(requestId: string | undefined, done: (cleared: undefined) => void): void {
  const { app, selected } = useServices();
  useEffect(() => {
    if (requestId === undefined) return undefined;
    return app.onMessage((message) => {
      if (message.type !== 'server-added' || message.requestId !== requestId) return;
      selected.set(message.session.id);
      done(undefined);
    });
  }, [app, selected, requestId, done]);
}

export function ServersContainer(): ReactNode {
  const { app, selected, clientSettings } = useServices();
  const settings = useClientSettings();
  const sessions = useLoupeSelector((s) => s.sessions);
  const order = useLoupeSelector((s) => s.order);
  const live = useLoupeSelector((s) => s.socket.phase === 'open' && s.synced);
  const inputs = useLoupeSelector((s) => s.workspace?.inputsNeeded);
  const pruned = useLoupeSelector((s) => s.workspace?.prunedSessions);
  const shown = useSelectedServer();
  const [editing, setEditing] = useState<Editing>();
  const [adding, setAdding] = useState<string>();
  const workspace = useWorkspaceActions();
  useSelectAdded(adding, setAdding);
  const entries = order.flatMap((id) => (sessions[id] ? [entryOf(sessions[id])] : []));
  const edited = editing?.mode === 'edit' ? sessions[editing.id] : undefined;
  return (
    <div className="space-y-3">
      <ServersPanel
        servers={entries}
        selected={shown}
        allSelected={shown === ALL_SERVERS}
        canAct={live}
        onSelect={(id) => selected.set(id)}
        onSelectAll={() => selected.set(ALL_SERVERS)}
        onAdd={() => setEditing({ mode: 'add' })}
        onConnect={(id) => sessions[id] && app.connect(id, sessions[id].config)}
        onDisconnect={(id) => app.disconnect(id)}
        onRestart={(id) => app.restart(id)}
        onEdit={(id) => setEditing({ mode: 'edit', id })}
        onRemove={(id) => app.removeServer(id)}
        onExport={workspace.onExport}
        headerActions={workspace.buttons}
        prunedSessions={pruned}
      />
      {workspace.panel}
      {inputs && inputs.length > 0 && <InputsForm inputs={inputs} canSend={live} onProvide={(values) => app.provideInputs(values)} />}
      {(editing?.mode === 'add' || edited) && (
        <ServerEditor
          key={editing?.mode === 'add' ? 'add' : edited?.id}
          mode={editing?.mode === 'add' ? 'add' : 'edit'}
          name={edited ? serverName(edited) : undefined}
          config={edited?.config}
          secrets={edited && { secretEnv: edited.secretEnv ?? [], secretHeaders: edited.secretHeaders ?? [] }}
          clientCapabilities={edited?.clientCapabilities ?? settings.choice}
          timeoutSeconds={settings.timeoutSeconds}
          canSubmit={live}
          onClose={() => setEditing(undefined)}
          onSubmit={(config, client, secrets) => {
            clientSettings.rememberConnect(client.clientCapabilities, client.serverRequestTimeoutMs === undefined ? undefined : client.serverRequestTimeoutMs / 1000);
            if (edited) {
              app.updateServer({ session: edited.id, config, ...secrets, clientCapabilities: client.clientCapabilities });
            } else {
              const requestId = newRequestId();
              setAdding(requestId);
              app.addServer({ config, ...client, ...secrets, roots: [...settings.roots], requestId });
            }
            setEditing(undefined);
          }}
        />
      )}
    </div>
  );
}
