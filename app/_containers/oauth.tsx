'use client';
/**
 * The OAuth tab of a remote server (issue 11): the session's sign-in state (SessionInfo.auth), its
 * guided flow (oauth-store.ts) and the OAuth messages. Opening the sign-in page is done here, in
 * the click handler of Continue, because a window opened from a user's gesture is not blocked.
 */
import type { ReactNode } from 'react';
import { OAuthPanel, OAuthStdioNote } from '@/components/oauth/panel.tsx';
import { signInUrlToOpen } from '@/components/oauth/steps.tsx';
import { useLoupeSelector, useServices, useSessionInfo } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';

export function OAuthContainer(): ReactNode {
  const { oauth } = useServices();
  const session = useSessionInfo();
  const state = useStore(oauth);
  const online = useLoupeSelector((s) => s.socket.phase === 'open' && s.synced);
  // A stdio server has nothing to sign in to: the tab, where shown, says so in one line.
  if (session?.config.kind === 'stdio') return <OAuthStdioNote />;
  if (!session || session.config.kind !== 'http') return null;
  const id = session.id;
  const flow = state.flows[id];
  const onContinue = () => {
    const url = flow && signInUrlToOpen(flow);
    // noopener: the authorization server's page gets no handle on Loupe's page.
    if (url) window.open(url, '_blank', 'popup,noopener,noreferrer');
    oauth.continueFlow(id);
  };
  return (
    <OAuthPanel
      serverUrl={session.config.url}
      auth={session.auth}
      flow={flow}
      online={online}
      notSent={state.notSent[id]}
      onStart={() => oauth.start(id)}
      onContinue={onContinue}
      onStop={() => oauth.stop(id)}
      onForget={() => oauth.forget(id)}
      onSaveSettings={(settings) => oauth.saveSettings(id, settings)}
    />
  );
}
