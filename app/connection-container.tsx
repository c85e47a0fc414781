'use client';
/** Wires the current session to the connection and server panels. */
import type { ReactNode } from 'react';
import { ConnectionPanel, type SessionChoice } from '@/components/connection-panel.tsx';
import { ServerPanel } from '@/components/server-panel.tsx';
import type { SessionInfo } from '../lib/wire.ts';
import { currentSession } from './loupe-state.ts';
import { ClientContainer } from './roots-container.tsx';
import { useClientSettings, useLoupeSelector, useServices } from './use-loupe.ts';

function statusDetail(session: SessionInfo | undefined): string | undefined {
  if (!session) return undefined;
  const parts: string[] = [];
  const name = session.serverInfo?.name ?? session.config.name;
  if (name) parts.push(name);
  parts.push(session.transport ?? (session.config.kind === 'stdio' ? 'stdio' : session.config.transport));
  if (session.pid !== undefined) parts.push(`pid ${session.pid}`);
  return parts.join(' · ');
}

function choiceLabel(session: SessionInfo): string {
  const target = session.config.kind === 'stdio' ? session.config.command : session.config.url;
  return `${session.config.name ?? target} (${session.status})`;
}

export function ConnectionContainer(): ReactNode {
  const { app, clientSettings } = useServices();
  const settings = useClientSettings();
  const session = useLoupeSelector(currentSession);
  const all = useLoupeSelector((s) => s.sessions);
  const order = useLoupeSelector((s) => s.order);
  const synced = useLoupeSelector((s) => s.synced);
  const live = useLoupeSelector((s) => s.socket.phase === 'open' && s.synced);
  const sessions: SessionChoice[] = order.flatMap((id) => (all[id] ? [{ id, label: choiceLabel(all[id]) }] : []));
  return (
    <div className="space-y-3">
      <ConnectionPanel
        status={session?.status}
        synced={synced}
        statusDetail={statusDetail(session)}
        error={session?.error}
        config={session?.config}
        formKey={`${session?.id ?? ''}:${JSON.stringify(session?.config ?? null)}`}
        canConnect={live}
        canDisconnect={live && (session?.status === 'connected' || session?.status === 'connecting')}
        clientCapabilities={session?.clientCapabilities ?? settings.choice}
        timeoutSeconds={session?.serverRequestTimeoutMs !== undefined ? session.serverRequestTimeoutMs / 1000 : settings.timeoutSeconds}
        connecting={session?.status === 'connecting' ? { since: session.since, timeoutMs: session.connectTimeoutMs } : undefined}
        connectTimeoutMs={session?.connectTimeoutMs}
        onCancel={() => session && app.disconnect(session.id)}
        onConnect={(config, client) => {
          clientSettings.rememberConnect(client.clientCapabilities, client.serverRequestTimeoutMs === undefined ? undefined : client.serverRequestTimeoutMs / 1000);
          // A session keeps its roots across reconnects; the first connect takes the ones kept here.
          app.connect(config, { ...client, ...(session ? {} : { roots: [...settings.roots] }) });
        }}
        onDisconnect={() => session && app.disconnect(session.id)}
        onReconnect={session ? () => app.connect(session.config) : undefined}
        sessions={sessions}
        currentSession={session?.id}
        onSelectSession={(id) => app.select(id)}
      />
      <ServerPanel session={session?.status === 'connected' ? session : undefined} />
      <ClientContainer />
    </div>
  );
}
