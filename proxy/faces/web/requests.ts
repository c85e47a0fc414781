/**
 * A tab's MCP requests and hand-written messages, relayed to a session and answered with a
 * `response` to that tab alone (lib/wire/wire.ts). Split from hub.ts (issue 9) to keep it one screenful.
 */
import type { WebSocket } from 'ws';
import type { LoupeError, RequestMessage, SendRawMessage } from '../../../lib/wire/wire.ts';
import { asRequestId, isWireError, progressOf, rawMessageOf, type ResponseHead } from './messages.ts';
import type { HubContext } from './context.ts';
import type { RawOutcome } from '../../session/raw-router.ts';
import type { Session } from '../../session/session.ts';

export async function relayRequest(hub: HubContext, ws: WebSocket, s: Session, message: RequestMessage): Promise<void> {
  // The time is the session's (proxy/session/raw-router.ts), the same for every face.
  const answer = (outcome: RawOutcome): void => sendOutcome(hub, ws, { type: 'response', id: message.id, session: s.id, durationMs: outcome.durationMs ?? 0, rpcId: outcome.rpcId }, outcome);
  let answered = false;
  const outcome = await s.request(message.id, message.method, message.params, {
    timeoutMs: message.timeoutMs,
    resetTimeoutOnProgress: message.resetTimeoutOnProgress,
    maxTotalTimeoutMs: message.maxTotalTimeoutMs,
    // Progress is asked for on tool calls (and wherever the page put a progressToken): on
    // every request it would add a `_meta` the user did not write to the frames.
    onProgress: wantsProgress(message.method, message.params)
      ? (p) => {
          const progress = progressOf(p);
          if (progress) hub.sendTo(ws, { type: 'progress', id: message.id, session: s.id, ...progress });
        }
      : undefined,
    // Sent on in the turn the server's answer is read (raw-router.ts); an outcome the session
    // makes without an answer (not connected) comes back through the await below.
    onSettled: (settled) => {
      answer(settled);
      answered = true;
    },
  });
  if (!answered) answer(outcome);
}

export async function relayRawMessage(hub: HubContext, ws: WebSocket, s: Session, message: SendRawMessage): Promise<void> {
  const raw = rawMessageOf(message);
  const base = { type: 'response' as const, id: message.id, session: s.id };
  if (!raw.ok) return hub.sendTo(ws, { ...base, ok: false, error: raw.error, durationMs: 0 });
  const outcome = await s.sendRaw(raw.message, message.origin, message.timeoutMs, message.headers);
  sendOutcome(hub, ws, { ...base, durationMs: outcome.durationMs ?? 0, rpcId: asRequestId(raw.message.id) }, outcome);
}

/**
 * The server's answer as the page's `response`. Where the transport kept the frame's text, the
 * envelope is built around it as text (the `frame` member, lib/wire/wire.ts): a result of any depth
 * goes to the page without being serialised again.
 */
function sendOutcome(hub: HubContext, ws: WebSocket, base: ResponseHead, outcome: RawOutcome): void {
  if (!outcome.ok && !isWireError(outcome.error)) {
    const error: LoupeError = { code: 'BAD_MESSAGE', message: 'The server answered with an error that is not a JSON-RPC error object (it needs a numeric "code" and a string "message"); its frame is in History.' };
    return hub.sendTo(ws, { ...base, ok: false, error });
  }
  // A frame crosses to the page once (issue 23): a tab that has the session's trace gets the
  // number of the answer's frame, in the message that carries the frame, and finds the result there.
  if (outcome.ok && outcome.frameSeq !== undefined && hub.sendJoined(ws, base.session, { ...base, ok: true, frameSeq: outcome.frameSeq })) return;
  if (outcome.frame !== undefined) {
    const head = JSON.stringify({ ...base, ok: outcome.ok });
    return hub.sendText(ws, `${head.slice(0, -1)},"frame":${outcome.frame}}`);
  }
  hub.sendTo(ws, outcome.ok ? { ...base, ok: true, result: outcome.result } : { ...base, ok: false, error: outcome.error });
}

function wantsProgress(method: string, params: Record<string, unknown> | undefined): boolean {
  const meta = params?._meta as { progressToken?: unknown } | undefined;
  return method === 'tools/call' || meta?.progressToken !== undefined;
}
