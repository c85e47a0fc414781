'use client';
/**
 * The Playground's MCP Apps views (issue 24): a model's tool call whose tool links a view gets its
 * own view, under the call's Observe, once the call has its result (the apps store's `calls`, one
 * per call, as the Tools tab's are one per tool). A view stays until its conversation forgets the
 * call (Clear, Re-run, an import, Compare turned off): then it is closed (`app-close`).
 *
 * What the view asks is listed beside it, as in the Tools tab. Its `ui/message` waits for Approve
 * or Deny: approved, the text goes into the view's own conversation as the next user message, as
 * if typed there, and the view hears it was sent; denied, nothing is sent and the view hears so.
 * Approve waits while that conversation cannot take a message (the model is answering…).
 */
import { useEffect, useMemo, type ReactNode } from 'react';
import { viewUriOf } from '../../lib/apps/meta.ts';
import type { ToolResult } from '../../lib/playground/types.ts';
import type { ViewAsk } from '../../lib/wire/wire.ts';
import { callKey, type ViewSlot } from '../_stores/apps-store.ts';
import type { RunState } from '../_stores/playground-run.ts';
import type { SendContext } from '../_stores/playground-store.ts';
import { useServices } from '../_hooks/use-loupe.ts';
import { SlotView } from './view-slot.tsx';
import { useStore } from '../_hooks/use-store.ts';

/** The tools each connected session lists (as sent), by session id: which of them link a view. */
export type ToolsBySession = Readonly<Record<string, readonly unknown[]>>;

const NO_TEXT = 'The message has no text to put into the conversation.';

function linksView(tools: readonly unknown[] | undefined, name: string): boolean {
  const tool = tools?.find((t) => t !== null && typeof t === 'object' && (t as { name?: unknown }).name === name);
  return tool !== undefined && viewUriOf(tool) !== undefined;
}

/** A tool result as the server sent it, but for the loop's own call id. */
const resultOf = (result: ToolResult): Omit<ToolResult, 'callId'> => ({ content: result.content, ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}), isError: result.isError });

/** The views of the calls of conversation `which`: opened once each call is done, closed once the conversation forgets it. */
export function useConversationViews(which: 0 | 1, run: RunState, tools: ToolsBySession): void {
  const { apps } = useServices();
  useEffect(() => {
    const present = new Set<string>();
    for (const turn of run.loop.turns) {
      for (const step of turn.calls) {
        const link = run.links[step.call.id];
        if (!link) continue;
        present.add(callKey(which, link.requestId));
        if (step.status !== 'done' || !step.result || !step.target || !linksView(tools[link.session], step.target.tool)) continue;
        // The call's response passed the apps store under the tab's request id: the view names its frame.
        apps.open({ session: link.session, tool: step.target.tool, callId: link.requestId, input: step.call.arguments, result: resultOf(step.result), fromResponse: true, conversation: which });
      }
    }
    for (const [key, slot] of Object.entries(apps.getSnapshot().calls)) if (slot.conversation === which && !present.has(key)) apps.discard(key);
  }, [apps, which, run, tools]);
}

interface CallViewProps {
  which: 0 | 1;
  viewKey: string;
  slot: ViewSlot;
  ctx: SendContext | undefined;
}

function CallView({ which, viewKey, slot, ctx }: CallViewProps): ReactNode {
  const { apps, playground } = useServices();
  // Only a message goes into the conversation; any other ask (a download) is answered as in the Tools tab.
  const cannotApprove = (ask: ViewAsk) => (ask.kind !== 'message' ? undefined : (ask.message ?? '').trim() === '' ? NO_TEXT : playground.messageProblem(which, ctx));
  const answer = (id: string, approve: boolean) => {
    const ask = slot.state?.asks.find((a) => a.id === id);
    if (!approve || ask?.kind !== 'message') {
      apps.answer(viewKey, id, approve);
      return;
    }
    if (!ctx || cannotApprove(ask) !== undefined) return;
    // The view hears `sent` only when the answer reached Loupe; then the text goes in, once.
    if (apps.answer(viewKey, id, true)) playground.sendTo(which, ask.message ?? '', ctx);
  };
  return <SlotView slotKey={viewKey} slot={slot} onAnswer={answer} cannotApprove={cannotApprove} />;
}

/** What the conversation draws under a call's Observe (by the model's call id): its view, or nothing. */
export function useViewOf(which: 0 | 1, run: RunState, ctx: SendContext | undefined): (callId: string) => ReactNode {
  const { apps } = useServices();
  const { calls } = useStore(apps);
  return (callId) => {
    const link = run.links[callId];
    const key = link ? callKey(which, link.requestId) : undefined;
    const slot = key !== undefined ? calls[key] : undefined;
    return key !== undefined && slot ? <CallView key={key} which={which} viewKey={key} slot={slot} ctx={ctx} /> : null;
  };
}

/** The tools each session lists, by session id, from the Playground's servers. */
export function useToolsBySession(servers: readonly { session: string; raw: readonly unknown[] }[]): ToolsBySession {
  return useMemo(() => Object.fromEntries(servers.map((s) => [s.session, s.raw])), [servers]);
}
