'use client';
/** Wires the selected server's session to the connection and server panels. */
import type { ReactNode } from 'react';
import { ConnectionPanel } from '@/components/connection/panel.tsx';
import type { Secrets } from '@/components/connection/form.tsx';
import { ServerPanel } from '@/components/connection/server-info.tsx';
import { DEFAULT_PROTOCOL } from '../../lib/model/server-config.ts';
import type { SessionInfo } from '../../lib/wire/wire.ts';
import { ClientContainer } from './roots.tsx';
import { SurfaceContainer } from './surface.tsx';
import { useClientSettings, useLoupeSelector, useServices } from '../_hooks/use-loupe.ts';

function statusDetail(session: SessionInfo | undefined): string | undefined {
  if (!session) return undefined;
  const parts: string[] = [];
  const name = session.serverInfo?.name ?? session.config.name;
  if (name) parts.push(name);
  parts.push(session.transport ?? (session.config.kind === 'stdio' ? 'stdio' : session.config.transport));
  if (session.pid !== undefined) parts.push(`pid ${session.pid}`);
  return parts.join(' · ');
}

/** What a connect waits for: the 2025 handshake, or the discovery a 2026-07-28 or Auto connect starts with. */
function waitingFor(session: SessionInfo): string {
  const mode = session.config.protocol ?? DEFAULT_PROTOCOL;
  return mode === '2025-11-25' ? 'initialize' : 'server/discover';
}

function secretsChanged(session: SessionInfo, secrets: Secrets): boolean {
  const same = (a: readonly string[] = [], b: readonly string[]) => a.length === b.length && a.every((n) => b.includes(n));
  return !same(session.secretEnv, secrets.secretEnv) || !same(session.secretHeaders, secrets.secretHeaders);
}

/** `id`: the selected server's session (undefined: none yet, Connect makes one). */
export function ConnectionContainer({ id }: { id: string | undefined }): ReactNode {
  const { app, clientSettings } = useServices();
  const settings = useClientSettings();
  const session = useLoupeSelector((s) => (id === undefined ? undefined : s.sessions[id]));
  const synced = useLoupeSelector((s) => s.synced);
  const live = useLoupeSelector((s) => s.socket.phase === 'open' && s.synced);
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
        connecting={session?.status === 'connecting' ? { since: session.since, timeoutMs: session.connectTimeoutMs, waitingFor: waitingFor(session) } : undefined}
        protocol={session}
        connectTimeoutMs={session?.connectTimeoutMs}
        onCancel={() => session && app.disconnect(session.id)}
        auth={session?.auth}
        secrets={session && { secretEnv: session.secretEnv ?? [], secretHeaders: session.secretHeaders ?? [] }}
        onConnect={(config, client, secrets) => {
          clientSettings.rememberConnect(client.clientCapabilities, client.serverRequestTimeoutMs === undefined ? undefined : client.serverRequestTimeoutMs / 1000);
          if (session && secretsChanged(session, secrets)) {
            // Marking a value secret is an edit of the server (update-server reconnects it).
            app.updateServer({ session: session.id, config, ...secrets, clientCapabilities: client.clientCapabilities });
            return;
          }
          // A session keeps its roots across reconnects; the first connect takes the ones kept here.
          app.connect(session?.id, config, { ...client, ...(session ? {} : { roots: [...settings.roots] }) });
        }}
        onDisconnect={() => session && app.disconnect(session.id)}
        onReconnect={session ? () => app.connect(session.id, session.config) : undefined}
      />
      {/* Loupe's side of the connection (what it declared, the roots it offers) right under it, where a
          user looks for client settings; not under the server's information and surface (issue 26). */}
      <ClientContainer session={session} />
      <ServerPanel session={session?.status === 'connected' ? session : undefined} />
      <SurfaceContainer id={id} />
    </div>
  );
}
