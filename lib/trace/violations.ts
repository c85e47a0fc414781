/**
 * Protocol violations a trace can show by itself, frame by frame. The stateful ones (unknown or
 * duplicate response ids, late responses) are found by the trace index (trace-index.ts), which
 * calls the helpers here for what one frame tells on its own.
 *
 * JSON-RPC 2.0: https://www.jsonrpc.org/specification
 * MCP messages: https://modelcontextprotocol.io/specification/2025-11-25/basic#messages
 * Cancellation: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation
 */
import { frameIsJson, frameMessage } from './frame-message.ts';
import type { ClientCapabilityChoice, FrameEvent } from '../wire/wire.ts';

export type ViolationCode =
  | 'unknown-id'
  | 'duplicate-response'
  | 'jsonrpc-version'
  | 'notification-with-id'
  | 'late-response'
  | 'reused-id'
  | 'undeclared-capability'
  | 'stdout-noise'
  | 'not-json-rpc'
  // A frame that breaks its version's schema, found by the proxy's spec validator (issue 14).
  | 'spec-schema'
  // 2026-07-28 sessions only (trace-violations-modern.ts):
  | 'header-mismatch'
  | 'session-id-stateless'
  | 'result-type'
  | 'deprecated-method';

export interface Violation {
  code: ViolationCode;
  /** One plain sentence, for the row's detail. */
  message: string;
  /** The specification section the frame breaks (set on the 2026-07-28 checks). */
  spec?: string;
}

/** Short names for badges and the filter. */
export const VIOLATION_LABELS: Record<ViolationCode, string> = {
  'unknown-id': 'response to unknown id',
  'duplicate-response': 'duplicate response',
  'jsonrpc-version': 'jsonrpc not "2.0"',
  'notification-with-id': 'notification with an id',
  'late-response': 'late response after cancellation',
  'reused-id': 'request id reused',
  'undeclared-capability': 'undeclared capability',
  'stdout-noise': 'stdout noise',
  'not-json-rpc': 'not JSON-RPC',
  'spec-schema': 'breaks the spec schema',
  'header-mismatch': 'HTTP headers do not match the body',
  'session-id-stateless': 'session id on a stateless session',
  'result-type': 'resultType does not fit',
  'deprecated-method': 'not in 2026-07-28',
};

/**
 * The text of a link to a violation's spec section: where in the spec it is, e.g.
 * `Spec: 2026-07-28/basic/transports/streamable-http#server-validation`.
 */
export function specLabel(url: string): string {
  return `Spec: ${url.replace(/^https:\/\/modelcontextprotocol\.io\/(specification\/)?/, '')}`;
}

/** The client capability a server→client request needs, and how the spec names it. */
export interface RequiredCapability {
  choice: keyof ClientCapabilityChoice;
  name: string;
}

function paramsOf(message: unknown): Record<string, unknown> | undefined {
  if (message === null || typeof message !== 'object') return undefined;
  const params = (message as { params?: unknown }).params;
  return params !== null && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : undefined;
}

/**
 * What a server→client request needs the client to have declared in `initialize`. `ping` needs
 * nothing; methods the spec does not define are not a capability matter (undefined).
 * https://modelcontextprotocol.io/specification/2025-11-25/client
 */
export function requiredCapabilities(method: string, message: unknown): RequiredCapability[] | undefined {
  const params = paramsOf(message);
  switch (method) {
    case 'sampling/createMessage': {
      const needs: RequiredCapability[] = [{ choice: 'sampling', name: 'sampling' }];
      if (params && ('tools' in params || 'toolChoice' in params)) needs.push({ choice: 'samplingTools', name: 'sampling.tools' });
      return needs;
    }
    case 'elicitation/create':
      return params?.mode === 'url' ? [{ choice: 'elicitationUrl', name: 'elicitation.url' }] : [{ choice: 'elicitationForm', name: 'elicitation.form' }];
    case 'roots/list':
      return [{ choice: 'roots', name: 'roots' }];
    case 'tasks/get':
    case 'tasks/result':
    case 'tasks/list':
    case 'tasks/cancel':
      return [{ choice: 'tasks', name: 'tasks' }];
    default:
      return undefined;
  }
}

/** A server→client request for a capability the client did not declare. */
export function capabilityViolation(method: string, message: unknown, declared: ClientCapabilityChoice): Violation | undefined {
  const missing = (requiredCapabilities(method, message) ?? []).filter((need) => !declared[need.choice]);
  if (missing.length === 0) return undefined;
  const names = missing.map((m) => m.name).join(', ');
  return { code: 'undeclared-capability', message: `The server sent ${method}, but Loupe did not declare the ${names} capability.` };
}

/** A frame (its parse is shared, frame-message.ts), or bare text (parsed here). */
type FrameText = string | Pick<FrameEvent, 'raw'>;

function parse(frame: FrameText): { ok: true; value: unknown } | { ok: false } {
  const holder = typeof frame === 'string' ? { raw: frame } : frame;
  return frameIsJson(holder) ? { ok: true, value: frameMessage(holder) } : { ok: false };
}

/**
 * What one frame shows by itself: `jsonrpc` not "2.0", a notification carrying an id (a
 * `notifications/*` method sent as a request, or with `id: null`), JSON that is not JSON-RPC.
 * Frames the proxy classified as valid JSON-RPC 2.0 are only checked for the notification id,
 * without parsing (so that a flood costs no JSON.parse per frame).
 */
export function frameViolations(frame: Pick<FrameEvent, 'raw' | 'rpc' | 'method' | 'id'>): Violation[] {
  if (frame.rpc === 'request' && frame.method?.startsWith('notifications/')) {
    return [{ code: 'notification-with-id', message: `${frame.method} is a notification but carries the id ${JSON.stringify(frame.id)}.` }];
  }
  if (frame.rpc !== 'invalid') return [];
  const parsed = parse(frame);
  if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
    return [{ code: 'not-json-rpc', message: 'Not a JSON-RPC message.' }];
  }
  const message = parsed.value as Record<string, unknown>;
  const found: Violation[] = [];
  if (message.jsonrpc !== '2.0') {
    found.push({ code: 'jsonrpc-version', message: `"jsonrpc" is ${JSON.stringify(message.jsonrpc) ?? 'missing'}; it must be "2.0".` });
  }
  if (typeof message.method === 'string' && 'id' in message && (message.id === null || message.method.startsWith('notifications/'))) {
    found.push({ code: 'notification-with-id', message: `${message.method} carries the id ${JSON.stringify(message.id)}; a notification has none.` });
  }
  if (found.length === 0) found.push({ code: 'not-json-rpc', message: 'JSON, but not a valid JSON-RPC message.' });
  return found;
}

/** `params.requestId` of a `notifications/cancelled` frame (undefined for anything else). */
export function cancelledRequestId(frame: Pick<FrameEvent, 'raw' | 'method'>): string | number | undefined {
  if (frame.method !== 'notifications/cancelled') return undefined;
  const parsed = parse(frame);
  const id = parsed.ok ? paramsOf(parsed.value)?.requestId : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** Parsed message of a frame, or undefined when its raw text is not JSON. */
export function parseFrame(frame: FrameText): unknown {
  const parsed = parse(frame);
  return parsed.ok ? parsed.value : undefined;
}

function has(record: Record<string, unknown> | undefined, key: string): boolean {
  return record !== undefined && record[key] !== undefined && record[key] !== null;
}

function sub(record: Record<string, unknown> | undefined, key: string): Record<string, unknown> | undefined {
  const value = record?.[key];
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}

/**
 * What a client declared, read from its `initialize` request frame: the trace's own record of
 * each connection (a reconnect may declare differently; an imported trace has no session).
 * An empty `elicitation` object means form mode (the 2025-06-18 shape).
 */
export function declaredInInitialize(frame: FrameText): ClientCapabilityChoice | undefined {
  const params = paramsOf(parseFrame(frame));
  const caps = sub(params, 'capabilities');
  if (!caps) return undefined;
  const elicitation = sub(caps, 'elicitation');
  const bareElicitation = elicitation !== undefined && Object.keys(elicitation).length === 0;
  return {
    sampling: has(caps, 'sampling'),
    samplingTools: has(sub(caps, 'sampling'), 'tools'),
    elicitationForm: bareElicitation || has(elicitation, 'form'),
    elicitationUrl: has(elicitation, 'url'),
    roots: has(caps, 'roots'),
    rootsListChanged: sub(caps, 'roots')?.listChanged === true,
    tasks: has(caps, 'tasks'),
    apps: has(sub(caps, 'extensions'), 'io.modelcontextprotocol/ui'),
  };
}
