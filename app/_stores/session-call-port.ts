/**
 * The page's CallPort (lib/collections/types.ts, issue 27): a collection's calls go out as the
 * page's ordinary requests on a session (so interception rules and breakpoints apply to them as to
 * any call), and what a test asserts on beside the result is read from the session's trace as the
 * tab holds it: the notifications that came while the call ran, the rule that refused it, its
 * frames for `Show in History` (request-frames.ts). The runner is lib/collections/run.ts, the same
 * one `--test` uses.
 */
import type { CallPort, PortOutcome } from '../../lib/collections/types.ts';
import type { ProgressMessage } from '../../lib/wire/wire.ts';
import { newRequestId, type RequestOutcome } from '../_wire/request-outcome.ts';
import type { SessionModel } from '../_session/model.ts';
import { requestFrames, type RequestFrames } from './request-frames.ts';

/** How long the answer's frames may take to reach the tab after the answer (they follow in the same tick). */
export const FRAMES_WAIT_MS = 2_000;
/** How long a tool list still loading is waited for, for a tool's `outputSchema`. */
export const TOOLS_WAIT_MS = 10_000;

/** Resolves when `done()` holds, checked now and after each change `listen` reports; false after `ms`. */
function until(done: () => boolean, listen: (check: () => void) => () => void, ms: number): Promise<boolean> {
  if (done()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      off();
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), ms);
    const off = listen(() => {
      if (done()) finish(true);
    });
  });
}

/** The frames of the request sent with `rpcId`, once its answer (or the rule that refused it) is in the trace. */
async function framesOf(model: SessionModel, outcome: RequestOutcome): Promise<RequestFrames | undefined> {
  const rpcId = outcome.rpcId;
  if (rpcId === undefined) return undefined;
  let found = requestFrames(model.port.log.events, rpcId);
  const complete = () => {
    found = requestFrames(model.port.log.events, rpcId);
    return found.response !== undefined || found.refusal !== undefined;
  };
  await until(complete, (check) => {
    const offEvents = model.port.onEvents(check);
    const offReset = model.port.onReset(check);
    return () => {
      offEvents();
      offReset();
    };
  }, FRAMES_WAIT_MS);
  return found;
}

function progressNotification(message: ProgressMessage): { method: string; params: unknown } {
  const { progress, total, message: text } = message;
  return { method: 'notifications/progress', params: { progress, ...(total !== undefined ? { total } : {}), ...(text !== undefined ? { message: text } : {}) } };
}

/** A request's outcome as the runner reads it, with what the trace says of it. */
export function portOutcome(session: string, outcome: RequestOutcome, frames: RequestFrames | undefined, progress: readonly ProgressMessage[]): PortOutcome {
  const base = {
    durationMs: outcome.durationMs,
    // The trace's notifications where the tab has them; else the progress the proxy relayed to this tab.
    notifications: frames?.request ? frames.notifications : progress.map(progressNotification),
    ...(frames?.refusal?.rule ? { refusedByRule: frames.refusal.rule.name } : {}),
    frames: { session, request: frames?.request?.seq ?? frames?.refusal?.seq, response: frames?.response?.seq ?? (outcome.ok ? outcome.frameSeq : undefined) },
  };
  if (outcome.ok) return { ok: true, result: outcome.result, ...base };
  const { code, message } = outcome.error;
  const data = 'data' in outcome.error ? outcome.error.data : undefined;
  return { ok: false, error: { code, message, ...(data !== undefined ? { data } : {}) }, ...base };
}

export function sessionCallPort(model: SessionModel): CallPort {
  return {
    async request(method, params, { timeoutMs, signal }) {
      const id = newRequestId();
      const progress: ProgressMessage[] = [];
      const off = model.port.onProgress((message) => {
        if (message.id === id) progress.push(message);
      });
      // A stopped run cancels the call in flight (notifications/cancelled), as the Tools tab's Cancel does.
      const cancel = () => model.port.cancel(id);
      signal?.addEventListener('abort', cancel, { once: true });
      const outcome = await model.port.request(method, params, id, { timeoutMs });
      signal?.removeEventListener('abort', cancel);
      off();
      const frames = await framesOf(model, outcome);
      return portOutcome(model.id, outcome, frames, progress);
    },
    async outputSchemaOf(tool) {
      const settled = () => ['done', 'error', 'unsupported'].includes(model.tools.getSnapshot().status);
      await until(settled, (check) => model.tools.subscribe(check), TOOLS_WAIT_MS);
      const entry = model.tools.getSnapshot().items.find((t) => t.name === tool);
      const raw = entry?.raw as { outputSchema?: unknown } | undefined;
      return raw?.outputSchema;
    },
  };
}
