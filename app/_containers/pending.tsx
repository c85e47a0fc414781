'use client';
/** Wires the server→client request queue (all sessions) to the pending panel shown above every tab. */
import { useCallback, useMemo, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { PendingPanel, type PendingItem, type RecentItem } from '@/components/pending/panel.tsx';
import type { SamplingAskView } from '@/components/pending/sampling-ask.tsx';
import type { Tone } from '@/components/ui/ui.tsx';
import { parseElicitation } from '../../lib/client/elicitation.ts';
import { parseSampling } from '../../lib/client/sampling.ts';
import { completedElicitations, describeFinish, requestKind, type FinishedRequest } from '../../lib/client/server-requests.ts';
import { callTarget, findCallRequest, viaSentence } from '../../lib/trace/rounds.ts';
import type { ServerRequest, SessionInfo } from '../../lib/wire/wire.ts';
import { revealInHistory, seqOf } from './playground.tsx';
import { askSetup, type AskState } from '../_stores/sampling-model-store.ts';
import { requestKey } from '../_stores/server-request-store.ts';
import { useClientSettings, useLoupeSelector, useServerRequests, useServices } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';

function sessionLabel(session: SessionInfo | undefined, id: string): string {
  return session?.serverInfo?.name ?? session?.config.name ?? id;
}

function viewOf(request: ServerRequest, done: ReadonlySet<string>): PendingItem['view'] {
  const kind = requestKind(request.method);
  if (kind === 'sampling') return { kind, sampling: parseSampling(request.params) };
  if (kind === 'elicitation') {
    const elicitation = parseElicitation(request.params);
    return { kind, elicitation, completed: elicitation.mode === 'url' && done.has(elicitation.elicitationId) };
  }
  return { kind: 'other' };
}

const TONES: Record<FinishedRequest['how'], Tone> = { answered: 'good', 'timed-out': 'bad', cancelled: 'warn', 'session-closed': 'neutral' };

/**
 * URL elicitations the server reported complete, over the sessions with a URL elicitation pending
 * (no other session's traffic re-renders the panel): their trace logs, re-read on each batch.
 */
function useCompleted(sessions: readonly string[]): ReadonlySet<string> {
  const { app } = useServices();
  const version = useRef(0);
  const subscribe = useCallback(
    (listener: () => void) => {
      const bump = () => {
        version.current += 1;
        listener();
      };
      const offs = sessions.flatMap((id) => [app.port(id).onEvents(bump), app.port(id).onReset(bump)]);
      return () => offs.forEach((off) => off());
    },
    [app, sessions],
  );
  const seen = useSyncExternalStore(subscribe, () => version.current, () => version.current);
  return useMemo(() => completedElicitations(sessions.flatMap((id) => app.port(id).log.events)), [app, sessions, seen]);
}

/**
 * The sentence for each request that came inside an `input_required` result: `via` names the
 * call's method and JSON-RPC id; the tool or prompt name (or URI) is read from that request in
 * the session's trace, once per pending request.
 */
function useViaSentences(pending: readonly ServerRequest[]): ReadonlyMap<string, string> {
  const { app } = useServices();
  return useMemo(() => {
    const out = new Map<string, string>();
    for (const request of pending) {
      if (!request.via) continue;
      const call = findCallRequest(app.port(request.session).log.events, request.via.call);
      out.set(requestKey(request), viaSentence(request.via, call ? callTarget(call) : undefined));
    }
    return out;
  }, [app, pending]);
}

function openUrl(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

function copyUrl(url: string): void {
  navigator.clipboard?.writeText(url).catch(() => undefined);
}

/** A sampling request's Ask model, as the panel shows it. */
function askView(setup: ReturnType<typeof askSetup>, ask: AskState | undefined): SamplingAskView {
  return {
    ready: setup.ready,
    setupWords: setup.words,
    status: ask?.status,
    choiceWords: ask?.choice?.why,
    notes: ask?.notes ?? [],
    error: ask?.error,
    latencyMs: ask?.status === 'answered' ? ask.latencyMs : undefined,
    hasExchange: ask?.exchangeSeq !== undefined,
  };
}

export function PendingContainer(): ReactNode {
  const services = useServices();
  const { serverRequests, clientSettings, samplingModel, nav } = services;
  const asks = useStore(samplingModel);
  const setup = askSetup(useStore(services.playground));
  const state = useServerRequests();
  const settings = useClientSettings();
  const sessions = useLoupeSelector((s) => s.sessions);
  const withUrl = useMemo(() => [...new Set(state.pending.filter((r) => r.method === 'elicitation/create' && r.params?.mode === 'url').map((r) => r.session))], [state.pending]);
  const completed = useCompleted(withUrl);
  const parsed = useMemo(() => new Map(state.pending.map((r) => [requestKey(r), viewOf(r, completed)])), [state.pending, completed]);
  const via = useViaSentences(state.pending);
  const items: PendingItem[] = state.pending.map((request) => {
    const key = requestKey(request);
    const view = parsed.get(key) ?? { kind: 'other' };
    const ask = asks[key];
    const suggestion = ask?.status === 'answered' && ask.suggestion ? { id: ask.callId, draft: ask.suggestion.draft } : undefined;
    const sampling = view.kind === 'sampling' ? { ask: askView(setup, ask), suggestion } : {};
    return { key, request, sessionLabel: sessionLabel(sessions[request.session], request.session), view, busy: state.sending.has(key), error: state.failed[key], via: via.get(key), ...sampling };
  });
  const recent: RecentItem[] = state.recent.map((entry) => ({
    key: `${requestKey(entry.request)}@${entry.at}`,
    method: entry.request.method,
    sessionLabel: sessionLabel(sessions[entry.request.session], entry.request.session),
    text: describeFinish(entry),
    tone: TONES[entry.how],
  }));
  return (
    <PendingPanel
      items={items}
      recent={recent}
      presets={settings.presets}
      onRespond={(item, answer) => serverRequests.respond(item.request, answer)}
      onSavePreset={(name, draft) => clientSettings.savePreset(name, draft)}
      onRemovePreset={(name) => clientSettings.removePreset(name)}
      onOpenUrl={openUrl}
      onCopyUrl={copyUrl}
      onAsk={(item) => item.view.kind === 'sampling' && samplingModel.ask(item.request, item.view.sampling)}
      onStopAsk={(item) => samplingModel.stop(item.request)}
      onOpenPlayground={() => nav.show('playground')}
      onShowExchange={(item) => {
        const seq = asks[item.key]?.exchangeSeq;
        if (seq !== undefined) revealInHistory(services, item.request.session, seqOf(seq));
      }}
    />
  );
}
