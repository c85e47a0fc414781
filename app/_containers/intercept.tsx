'use client';
/**
 * The Intercept tab (issue 13) wired to the tab's stores: the rules and held frames of every
 * session (intercept-store.ts), named as the Servers panel names their sessions. Shown under any
 * server, the same everywhere: rules and holds are the proxy's, not one session's.
 */
import type { ReactNode } from 'react';
import { InterceptHeld, type HeldCard } from '@/components/intercept/held.tsx';
import { InterceptRules } from '@/components/intercept/rules.tsx';
import type { InterceptStore } from '../_stores/intercept-store.ts';
import { serverName } from './servers.tsx';
import { useLoupeSelector, useServices } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';

/** How many frames are held now, of every session (the tab's count badge). */
export function useHeldCount(): number {
  return useStore(useServices().intercept).holds.length;
}

/**
 * Newlines in valid JSON are whitespace between tokens, and a stdio frame is one line: an edit
 * typed over several lines goes on as one (as the raw composer's text does, hub-messages.ts).
 */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, '');
}

function decide(intercept: InterceptStore, holdId: string, decision: Parameters<InterceptStore['release']>[1]): void {
  intercept.release(holdId, decision.action === 'forward-edited' || decision.action === 'respond' ? { ...decision, raw: oneLine(decision.raw) } : decision);
}

export function InterceptContainer(): ReactNode {
  const { intercept } = useServices();
  const state = useStore(intercept);
  const sessions = useLoupeSelector((s) => s.sessions);
  const order = useLoupeSelector((s) => s.order);
  const canAct = useLoupeSelector((s) => s.socket.phase === 'open' && s.synced);
  const names = order.flatMap((id) => (sessions[id] ? [serverName(sessions[id])] : []));
  const cards: HeldCard[] = state.holds.map((frame) => {
    const session = sessions[frame.session];
    return { frame, sessionName: session ? serverName(session) : frame.session, ...state.drafts[frame.holdId] };
  });
  return (
    <div className="space-y-3">
      <InterceptHeld
        holds={cards}
        canAct={canAct}
        notice={state.notice}
        onText={(holdId, text) => intercept.editText(holdId, text)}
        onResponse={(holdId, open) => intercept.openResponse(holdId, open)}
        onResponseText={(holdId, text) => intercept.editResponse(holdId, text)}
        onDecide={(holdId, decision) => decide(intercept, holdId, decision)}
        onReleaseAll={() => intercept.releaseAll()}
      />
      <InterceptRules
        rules={state.rules}
        source={state.source}
        servers={[...new Set(names)]}
        canAct={canAct}
        problem={state.problem}
        onSave={(rule) => intercept.saveRule(rule)}
        onDelete={(id) => intercept.deleteRule(id)}
        onEnabled={(id, on) => intercept.setEnabled(id, on)}
      />
    </div>
  );
}
