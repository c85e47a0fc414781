'use client';
/**
 * Loupe's part as a client, for the side panel: what the selected server's connection declared, and the
 * roots it offers. A session holds its roots (the proxy answers `roots/list` from them and sends
 * `notifications/roots/list_changed` on a change); before any session exists they are kept here
 * and sent with the first connect.
 */
import { useRef, type ReactNode } from 'react';
import { DeclaredCapabilities } from '@/components/connection/client-capabilities.tsx';
import { RootsEditor } from '@/components/connection/roots-editor.tsx';
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
  // The session's roots come back from the proxy after a change is sent: a second change made
  // before then (add a root, remove another at once) builds on the list just sent, not on the one
  // still shown, or it would undo the first (the server was left with no roots).
  const sent = useRef<{ session?: string; roots: readonly Root[] } | undefined>(undefined);
  if (sent.current && (sent.current.session !== session?.id || JSON.stringify(sent.current.roots) === JSON.stringify(shown))) sent.current = undefined;
  const roots = sent.current?.roots ?? shown;
  const change = (next: Root[]) => {
    sent.current = { session: session?.id, roots: next };
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
