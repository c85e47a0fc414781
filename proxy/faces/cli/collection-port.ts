/**
 * The CallPort of `--test` (issue 27, lib/collections/types.ts): a collection's calls go out as the
 * headless session's requests (proxy/session/session.ts, the router the page's requests take, so
 * `--rules` applies to them as to any call), and what a test asserts on beside the result is read
 * from the session's trace while the call is in flight: the notifications that came (a progress
 * token goes with every call, so a server that reports progress can), the rule that refused it,
 * and the seq of its frames. One call is in flight at a time, so what came meanwhile is its own.
 */
import type { CallPort, PortOutcome } from '../../../lib/collections/types.ts';
import type { FrameEvent, InterventionEvent, TraceEvent } from '../../../lib/wire/wire.ts';
import type { Session } from '../../session/session.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function parsed(raw: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** What the trace recorded while one call was in flight. */
interface Seen {
  notifications: PortOutcome['notifications'];
  frames: FrameEvent[];
  refusals: InterventionEvent[];
}

function watch(session: Session): { seen: Seen; stop: () => void } {
  const seen: Seen = { notifications: [], frames: [], refusals: [] };
  const stop = session.trace.subscribe((event: TraceEvent, exact?: { value: unknown }) => {
    if (event.kind === 'intervention' && event.dir === 'out' && event.by === 'rule' && (event.action === 'answered' || event.action === 'dropped')) seen.refusals.push(event);
    if (event.kind !== 'frame' || event.view !== undefined) return;
    seen.frames.push(event);
    if (event.dir === 'in' && event.rpc === 'notification' && event.method !== undefined) {
      const message = exact && isObject(exact.value) ? exact.value : parsed(event.raw);
      seen.notifications.push({ method: event.method, params: message?.params });
    }
  });
  return { seen, stop };
}

/** A port over one headless session; `tools/list` is asked once, for the tools' outputSchema. */
export function headlessCallPort(session: Session): CallPort {
  let calls = 0;
  let tools: Promise<Map<string, unknown>> | undefined;
  return {
    async request(method, params, { timeoutMs, signal }) {
      const uiId = `test-${++calls}`;
      const { seen, stop } = watch(session);
      const cancel = () => session.cancel(uiId);
      signal?.addEventListener('abort', cancel, { once: true });
      try {
        // The call's limit is its whole time, progress or not (the runner's verdict says `No answer within N ms`).
        const outcome = await session.request(uiId, method, params, { timeoutMs, resetTimeoutOnProgress: false, onProgress: () => undefined });
        const rpcId = outcome.rpcId;
        const refusal = seen.refusals.find((r) => rpcId === undefined || parsed(r.original)?.id === rpcId);
        const request = seen.frames.find((f) => f.dir === 'out' && f.rpc === 'request' && f.id === rpcId);
        const response = seen.frames.find((f) => f.dir === 'in' && (f.rpc === 'response' || f.rpc === 'error') && f.id === rpcId);
        const base = {
          durationMs: outcome.durationMs ?? 0,
          notifications: seen.notifications,
          ...(refusal?.rule ? { refusedByRule: refusal.rule.name } : {}),
          frames: { session: session.id, ...(request ? { request: request.seq } : {}), ...(response ? { response: response.seq } : {}) },
        };
        if (outcome.ok) return { ok: true, result: outcome.result, ...base };
        const data = 'data' in outcome.error ? outcome.error.data : undefined;
        return { ok: false, error: { code: outcome.error.code, message: outcome.error.message, ...(data !== undefined ? { data } : {}) }, ...base };
      } finally {
        stop();
        signal?.removeEventListener('abort', cancel);
      }
    },
    async outputSchemaOf(tool) {
      tools ??= listOutputSchemas(session);
      return (await tools).get(tool);
    },
  };
}

/** Every page of tools/list, each tool's outputSchema by name (none when the list fails: the assertion says so). */
async function listOutputSchemas(session: Session): Promise<Map<string, unknown>> {
  const { fetchAllPages } = await import('../../../lib/client/paged-list.ts');
  const paged = await fetchAllPages((cursor) => session.request('test-tools', 'tools/list', cursor === undefined ? undefined : { cursor }, { timeoutMs: 30_000 }), 'tools');
  const schemas = new Map<string, unknown>();
  for (const item of paged.items) if (isObject(item) && typeof item.name === 'string' && item.outputSchema !== undefined) schemas.set(item.name, item.outputSchema);
  return schemas;
}
