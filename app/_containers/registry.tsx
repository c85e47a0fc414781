'use client';
/**
 * `Open server.json` wired (issue 25, item 4): the entry's server goes through `add-server` like
 * `Add server` (secret env vars and headers named in secretEnv / secretHeaders, their values held
 * by the proxy; a secret argument's value sent first with `provide-inputs`, the config holding
 * only its `${input:…}` reference), is selected once the proxy made it, and its status and
 * serverInfo feed the dialog's comparison.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { RegistryEntryDialog, type ReadyPlan } from '@/components/servers/registry-entry.tsx';
import { newRequestId } from '../_wire/request-outcome.ts';
import { useClientSettings, useLoupeSelector, useServices } from '../_hooks/use-loupe.ts';

export function RegistryPanel({ live, onClose }: { live: boolean; onClose(): void }): ReactNode {
  const { app, selected } = useServices();
  const settings = useClientSettings();
  const [requestId, setRequestId] = useState<string>();
  const [sessionId, setSessionId] = useState<string>();
  const session = useLoupeSelector((s) => (sessionId ? s.sessions[sessionId] : undefined));
  useEffect(() => {
    if (requestId === undefined) return undefined;
    return app.onMessage((message) => {
      if (message.type !== 'server-added' || message.requestId !== requestId) return;
      setSessionId(message.session.id);
      selected.set(message.session.id);
    });
  }, [app, selected, requestId]);
  const add = (plan: ReadyPlan) => {
    if (Object.keys(plan.inputs).length > 0) app.provideInputs(plan.inputs);
    const id = newRequestId();
    setRequestId(id);
    setSessionId(undefined);
    app.addServer({ config: plan.config, secretEnv: plan.secretEnv, secretHeaders: plan.secretHeaders, clientCapabilities: settings.choice, roots: [...settings.roots], requestId: id });
  };
  const shown = session && { status: session.status, name: session.name, serverInfo: session.serverInfo, transport: session.transport };
  return <RegistryEntryDialog canAdd={live} live={shown} onAdd={add} onClose={onClose} />;
}
