/**
 * The page's requests on a 2026-07-28 session (issue 12): the raw router, with the per-request
 * `_meta` envelope added and the multi-round-trip flow run in the proxy. When a `tools/call`,
 * `prompts/get` or `resources/read` answers `resultType: "input_required"`, each embedded
 * request goes to the same pending queue as a 2025 server→client request (roots are answered
 * from the session's roots, as they are on 2025 sessions), and the request is sent again on a
 * fresh id with the `inputResponses` and the `requestState` echoed as it came. The caller gets the
 * final result; the trace marks each re-sent request with the call it continues.
 *
 * Run here rather than by the v2 Client's auto-fulfilment because the page must get results as
 * the server sent them (the SDK lifts `resultType` away), any method must pass, and each round
 * must be named in the trace; the flow itself is small.
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { LoupeError, RequestId, Root, RpcError } from '../../lib/wire/wire.ts';
import { RawRouter, type RawOutcome, type RouterRequestOptions } from './raw-router.ts';
import { hasEnvelope, withEnvelope, type EnvelopeParts } from './modern-envelope.ts';
import type { ServerRequestOutcome } from './server-requests.ts';
import { rememberText, textOf } from '../pipeline/frame-text.ts';
import { stringifySafe } from '../../lib/json/safe-json.ts';

/** The methods whose results may be `input_required` (basic/patterns/mrtr). */
const ROUND_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** Rounds of one call before Loupe stops asking (a server that never completes). */
export const MAX_ROUNDS = 10;

export interface InputVia {
  call: RequestId;
  method: string;
  key: string;
  round: number;
}

export interface ModernSide {
  /** The envelope's parts as they are now (the log level can change between requests). */
  envelope(): EnvelopeParts;
  roots(): Root[];
  /** Asks the user (the pending queue); resolves with their answer or an error. */
  ask(method: string, params: Record<string, unknown>, via: InputVia, signal: AbortSignal): Promise<ServerRequestOutcome>;
}

interface InputRequired {
  inputRequests?: Record<string, { method?: unknown; params?: unknown }>;
  requestState?: string;
}

function inputRequired(result: unknown): InputRequired | undefined {
  if (result === null || typeof result !== 'object' || (result as { resultType?: unknown }).resultType !== 'input_required') return undefined;
  return result as InputRequired;
}

/** `tools/call echo`, `resources/read file:///x`: what the pending queue names the call by. */
function callName(method: string, params: Record<string, unknown> | undefined): string {
  const name = params?.name ?? params?.uri;
  return typeof name === 'string' ? `${method} ${name}` : method;
}

export class ModernRouter extends RawRouter {
  constructor(
    transport: ConstructorParameters<typeof RawRouter>[0],
    trace: ConstructorParameters<typeof RawRouter>[1],
    private readonly side: ModernSide,
  ) {
    super(transport, trace);
  }

  override async request(method: string, params: Record<string, unknown> | undefined, options: RouterRequestOptions): Promise<RawOutcome> {
    let sendParams = withEnvelope(params, this.side.envelope());
    let first: RequestId | undefined;
    // Only these methods may ask for input; an input_required elsewhere is returned as sent (the History marks it).
    const askedIn = (outcome: RawOutcome) => (outcome.ok && ROUND_METHODS.has(method) ? inputRequired(outcome.result) : undefined);
    // A round that asks for input is not the call's outcome: only an answer that ends the call is told.
    const told = options.onSettled;
    const rounds: RouterRequestOptions = told ? { ...options, onSettled: (outcome) => (askedIn(outcome) ? undefined : told(outcome)) } : options;
    for (let round = 1; ; round++) {
      const outcome = await super.request(method, sendParams, first === undefined ? rounds : { ...rounds, round: { call: first, n: round } });
      first ??= outcome.rpcId;
      const asked = askedIn(outcome);
      if (!asked || first === undefined) return outcome;
      if (round >= MAX_ROUNDS) {
        return { ok: false, error: { code: 'TOO_MANY_ROUNDS', message: `The server asked for input ${MAX_ROUNDS} times in a row without completing; Loupe stopped re-sending ${method}.` }, rpcId: outcome.rpcId };
      }
      const answered = await this.fulfil(asked, { call: first, method: callName(method, params), round }, options.cancel.signal);
      if (!answered.ok) return { ok: false, error: answered.error, rpcId: outcome.rpcId };
      const { inputResponses: _old, requestState: _state, ...rest } = sendParams;
      sendParams = { ...rest, inputResponses: answered.responses, ...(asked.requestState !== undefined ? { requestState: asked.requestState } : {}) };
    }
  }

  /** A hand-written frame without an envelope gets one, so that a 2026 server will take it; one with an envelope goes as written. */
  override send(message: Record<string, unknown>, origin: 'replay' | 'edited' | 'composer', timeoutMs: number, beforeWrite?: (text: string) => void): Promise<RawOutcome> {
    if (typeof message.method !== 'string' || hasEnvelope(message)) return super.send(message, origin, timeoutMs, beforeWrite);
    const params = message.params !== null && typeof message.params === 'object' && !Array.isArray(message.params) ? (message.params as Record<string, unknown>) : undefined;
    const dressed = { ...message, params: withEnvelope(params, this.side.envelope()) };
    rememberText(dressed, stringifySafe(dressed) ?? textOf(message) ?? '');
    return super.send(dressed as JSONRPCMessage as Record<string, unknown>, origin, timeoutMs, beforeWrite);
  }

  /** Answers every embedded request of one round; the first one refused ends the call. */
  private async fulfil(asked: InputRequired, via: Omit<InputVia, 'key'>, signal: AbortSignal): Promise<{ ok: true; responses: Record<string, unknown> } | { ok: false; error: RpcError | LoupeError }> {
    const responses: Record<string, unknown> = {};
    const entries = Object.entries(asked.inputRequests ?? {});
    const answers = await Promise.all(
      entries.map(async ([key, request]) => {
        const method = typeof request?.method === 'string' ? request.method : '';
        const params = request?.params !== null && typeof request?.params === 'object' ? (request.params as Record<string, unknown>) : {};
        if (method === 'roots/list') return { key, outcome: { ok: true, result: { roots: this.side.roots() } } as ServerRequestOutcome };
        if (method !== 'elicitation/create' && method !== 'sampling/createMessage') {
          return { key, outcome: { ok: false, error: { code: -32601, message: `The server asked for "${method}" inside an input_required result; Loupe answers only elicitation/create, sampling/createMessage and roots/list there.` } } as ServerRequestOutcome };
        }
        return { key, outcome: await this.side.ask(method, params, { ...via, key }, signal) };
      }),
    );
    for (const { key, outcome } of answers) {
      if (!outcome.ok) {
        return { ok: false, error: { code: 'INPUT_REFUSED', message: `The input the server asked for (${key}) was not given: ${outcome.error.message.replace(/\.$/, '')}. Loupe did not send the request again.` } };
      }
      responses[key] = outcome.result;
    }
    return { ok: true, responses };
  }
}
