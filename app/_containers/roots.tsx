'use client';
/**
 * Loupe's part as a client, for the side panel: what the selected server's connection declared, and the
 * roots it offers. A session holds its roots (the proxy answers `roots/list` from them and sends
 * `notifications/roots/list_changed` on a change); before any session exists they are kept here
 * and sent with the first connect.
 */
import type { ReactNode } from 'react';
import { DeclaredCapabilities } from '@/components/connection/client-capabilities.tsx';
import { RootsEditor } from '@/components/connection/roots-editor.tsx';
import { useSentAhead } from '@/components/ui/use-sent-ahead.ts';
import { Panel } from '@/components/ui/ui.tsx';
import type { Root, SessionInfo } from '../../lib/wire/wire.ts';
import { useClientSettings, useServices } from '../_hooks/use-loupe.ts';

function rootsNote(session: SessionInfo | undefined): string {
  if (!session) return 'No session yet: these roots are sent with the first connect.';
  const choice = session.clientCapabilities;
  if (session.status !== 'connected') return 'Kept for the next connect of this session.';
  if (choice && !choice.roots) return 'Kept by the session; the server cannot ask for them on this connection.';
  if (choice && !choice.rootsListChanged) return 'Loupe did not declare roots.listChanged: the server sees changes only when it asks again.';
  return 'A change is sent to the server at once as notifications/roots/list_changed.';
}

export function ClientContainer({ session }: { session: SessionInfo | undefined }): ReactNode {
  const { app, clientSettings } = useServices();
  const settings = useClientSettings();
  const shown: readonly Root[] = session ? (session.roots ?? []) : settings.roots;
  // The session's roots come back from the proxy: a second change builds on the list just sent.
  const ahead = useSentAhead(shown, session?.id);
  const roots = ahead.base();
  const change = (next: Root[]) => {
    ahead.sent(next);
    clientSettings.setRoots(next);
    if (session) app.send({ type: 'set-roots', session: session.id, roots: next });
  };
  return (
    <>
      {session?.clientCapabilities && (
        <Panel label="Client" title="Client">
          <DeclaredCapabilities choice={session.clientCapabilities} timeoutMs={session.serverRequestTimeoutMs} />
        </Panel>
      )}
      <RootsEditor roots={roots} note={rootsNote(session)} declared={session?.clientCapabilities?.roots ?? true} onChange={change} />
    </>
  );
}
