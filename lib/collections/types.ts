/**
 * What running a collection needs and gives (issue 27): the port a runner sends through (the page's
 * session port, the headless SDK client), and the verdicts. One runner (run.ts) for the page and for
 * `--test`, so that both give the same verdicts on the same answers.
 */
import type { Assertion, CollectionCall } from './schema.ts';

export type { Assertion, Collection, CollectionCall } from './schema.ts';

/** What came back for one request, as the port saw it. */
export interface PortOutcome {
  ok: boolean;
  /** The JSON-RPC result (ok). */
  result?: unknown;
  /** The JSON-RPC error, or Loupe's own (not connected, timed out) as `{ code: string, message }`. */
  error?: { code: number | string; message: string; data?: unknown };
  durationMs: number;
  /** Notifications related to this request (its progress token, or in flight with it), in order. */
  notifications: { method: string; params?: unknown }[];
  /** The interception rule that refused the call, when one did (its name). */
  refusedByRule?: string;
  /** Where the call is in the History: the session and the seq of its request and response frames. */
  frames?: { session?: string; request?: number; response?: number };
}

export interface CallPort {
  /** Sends one request; `signal` (when given) stops waiting, and cancels the request where the port can. */
  request(method: string, params: Record<string, unknown>, options: { timeoutMs: number; signal?: AbortSignal }): Promise<PortOutcome>;
  /** The tool's `outputSchema` as the server lists it (undefined: none, or no such tool). */
  outputSchemaOf(tool: string): Promise<unknown>;
}

export interface AssertionVerdict {
  assertion: Assertion;
  ok: boolean;
  /** One line a person reads: `$.content[0].text equals "Echo: hi"`. */
  label: string;
  /** When it failed: where, what was expected, what was there (undefined: nothing at the path). */
  path?: string;
  expected?: unknown;
  actual?: unknown;
  /** When it failed, the sentence: `at $.content[0].text expected "Echo: hi", found "Echo: ho"`. */
  message?: string;
}

export type CallStatus = 'passed' | 'failed' | 'error' | 'skipped';

export interface CallVerdict {
  collection: string;
  call: string;
  /** passed: every assertion held; failed: one did not; error: the call could not be made or answered
   * in a way no assertion expected (a variable missing, a timeout, a crash); skipped: not run. */
  status: CallStatus;
  /** The request as sent, variables filled in. */
  request?: { method: string; params: Record<string, unknown> };
  outcome?: PortOutcome;
  assertions: AssertionVerdict[];
  /** Why `error` or `skipped`, in one sentence. */
  reason?: string;
  durationMs: number;
  /** The values this call's `extract` took from its answer, by variable name. */
  extracted?: Record<string, unknown>;
  /** What the runner noticed that is not a verdict (an extract that found nothing). */
  notes?: string[];
}

export interface CollectionVerdict {
  name: string;
  calls: CallVerdict[];
  counts: Record<CallStatus, number>;
  durationMs: number;
}

export type { CollectionCall as Call };
