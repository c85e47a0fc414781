/**
 * Sits between the transport and the SDK Client, seeing every incoming message first:
 * - sends JSON-RPC messages the user wrote (the raw composer, replays) beside the SDK, and routes
 *   the responses to them back to the user (the SDK's `request()` picks its own id, checks the
 *   method's schema, and drops responses it did not ask for);
 * - reports `notifications/progress` synchronously, in wire order. The SDK's own `onprogress`
 *   runs notification handlers a microtask late, so a progress notification that arrives in the
 *   same chunk as the final response is lost there.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RequestId, RpcError } from '../lib/wire.ts';
import type { TraceRecorder } from './trace-recorder.ts';

export type RawOutcome = { ok: true; result: unknown } | { ok: false; error: RpcError | { code: 'TIMEOUT' | 'NOT_CONNECTED'; message: string } };

interface Waiting {
  resolve(outcome: RawOutcome): void;
  timer: ReturnType<typeof setTimeout>;
}

const key = (id: RequestId): string => `${typeof id}:${id}`;

export interface ProgressParams {
  progress: number;
  total?: number;
  message?: string;
}

export class RawRouter {
  private readonly waiting = new Map<string, Waiting>();
  private readonly progress = new Map<string, (params: ProgressParams) => void>();

  constructor(
    private readonly transport: Transport,
    private readonly trace: TraceRecorder,
  ) {}

  /** Call once the SDK Client is connected (it has set `transport.onmessage` by then). */
  install(): void {
    const sdk = this.transport.onmessage;
    this.transport.onmessage = (message, extra) => {
      if (this.take(message)) return;
      this.noticeProgress(message);
      sdk?.(message, extra);
    };
  }

  /** Calls `listener` for each progress notification with this token until the returned stop. */
  watchProgress(token: RequestId, listener: (params: ProgressParams) => void): () => void {
    this.progress.set(key(token), listener);
    return () => this.progress.delete(key(token));
  }

  private noticeProgress(message: JSONRPCMessage): void {
    if (this.progress.size === 0) return;
    const m = message as { method?: unknown; params?: { progressToken?: RequestId } & ProgressParams };
    if (m.method !== 'notifications/progress' || m.params?.progressToken === undefined) return;
    const listener = this.progress.get(key(m.params.progressToken));
    if (listener && typeof m.params.progress === 'number') listener({ progress: m.params.progress, total: m.params.total, message: m.params.message });
  }

  /** Sends `message` as is; a request resolves with its response, anything else at once. */
  async send(message: Record<string, unknown>, origin: 'replay' | 'edited' | 'composer', timeoutMs: number): Promise<RawOutcome> {
    const id = message.id;
    const expectsAnswer = typeof message.method === 'string' && (typeof id === 'string' || typeof id === 'number');
    const answer = expectsAnswer ? this.wait(id as RequestId, timeoutMs) : undefined;
    this.trace.expectOut(JSON.stringify(message), origin);
    try {
      await this.transport.send(message as JSONRPCMessage);
    } catch (error) {
      if (expectsAnswer) this.settle(id as RequestId, { ok: false, error: { code: 'NOT_CONNECTED', message: (error as Error).message } });
      return { ok: false, error: { code: 'NOT_CONNECTED', message: (error as Error).message } };
    }
    return answer ?? { ok: true, result: null };
  }

  /** The session is closing: nobody will answer what is still waiting. */
  closeAll(): void {
    for (const id of [...this.waiting.keys()]) {
      const entry = this.waiting.get(id)!;
      clearTimeout(entry.timer);
      this.waiting.delete(id);
      entry.resolve({ ok: false, error: { code: 'NOT_CONNECTED', message: 'The session closed before the server answered' } });
    }
  }

  private wait(id: RequestId, timeoutMs: number): Promise<RawOutcome> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle(id, { ok: false, error: { code: 'TIMEOUT', message: `No response within ${Math.round(timeoutMs / 1000)} s` } }), timeoutMs);
      this.waiting.set(key(id), { resolve, timer });
    });
  }

  private settle(id: RequestId, outcome: RawOutcome): void {
    const entry = this.waiting.get(key(id));
    if (!entry) return;
    clearTimeout(entry.timer);
    this.waiting.delete(key(id));
    entry.resolve(outcome);
  }

  /** True when `message` answered a hand-sent request (and so is not the SDK's business). */
  private take(message: JSONRPCMessage): boolean {
    const m = message as { id?: RequestId; method?: unknown; result?: unknown; error?: RpcError };
    if (m.method !== undefined || m.id === undefined || !this.waiting.has(key(m.id))) return false;
    this.settle(m.id, m.error !== undefined ? { ok: false, error: m.error } : { ok: true, result: m.result });
    return true;
  }
}
