/**
 * Protocol violations of the 2026-07-28 generation (issue 12), one frame or one HTTP exchange at
 * a time; the trace index (trace-index.ts) keeps the little state they need (the session's era,
 * which request body an HTTP exchange carried, which request a response answers). A 2025 session
 * never reaches these checks: the index runs them only where a frame says it speaks 2026-07-28.
 *
 * Which spec page each check relies on (all read in the 2026-07-28 revision's sources):
 * - basic/transports/streamable-http: the request metadata headers and the server's duty to
 *   reject a mismatch (#server-validation); sessions, the GET stream and server requests on a
 *   stream are gone (#earlier-streamable-http-revisions).
 * - basic/patterns/mrtr: which requests may answer `input_required` (#supported-requests), what
 *   such a result must carry (#server-requirements-basic-workflow), server→client requests
 *   replaced by input requests (the page's opening note).
 * - basic (the overview page), #resulttype: unknown `resultType` values are invalid.
 * - basic/versioning: there is no handshake (#protocol-version-negotiation); an extension is used
 *   only when both sides declared it (#extension-negotiation).
 * - changelog: ping, logging/setLevel, resources/subscribe|unsubscribe and
 *   notifications/roots/list_changed removed (#major-changes, items 4 and 5);
 *   notifications/elicitation/complete removed (#minor-changes, item 11).
 * - The tasks extension lives outside the dated tree (extensions/tasks/overview): a task handle
 *   answers a tools/call, and only to a client that declared the extension.
 */
import { frameMessage, frameParamsObject } from './frame-message.ts';
import type { Violation } from './violations.ts';
import { CLIENT_CAPABILITIES_KEY, isModernVersion, MODERN_VERSION, PROTOCOL_VERSION_KEY, TASKS_EXTENSION } from '../model/modern-meta.ts';
import type { FrameEvent, HttpEvent } from '../wire/wire.ts';

export type Era = 'legacy' | 'modern';

export { isModernVersion, MODERN_VERSION, PROTOCOL_VERSION_KEY };

const SPEC_ROOT = `https://modelcontextprotocol.io/specification/${MODERN_VERSION}`;
/** The spec sections the checks cite (see the header comment for what each says). */
export const SPEC = {
  headers: `${SPEC_ROOT}/basic/transports/streamable-http#server-validation`,
  sessions: `${SPEC_ROOT}/basic/transports/streamable-http#earlier-streamable-http-revisions`,
  inputRequiredMethods: `${SPEC_ROOT}/basic/patterns/mrtr#supported-requests`,
  inputRequiredContent: `${SPEC_ROOT}/basic/patterns/mrtr#server-requirements-basic-workflow`,
  serverRequests: `${SPEC_ROOT}/basic/patterns/mrtr`,
  resultType: `${SPEC_ROOT}/basic#resulttype`,
  extensions: `${SPEC_ROOT}/basic/versioning#extension-negotiation`,
  handshake: `${SPEC_ROOT}/basic/versioning#protocol-version-negotiation`,
  removed: `${SPEC_ROOT}/changelog#major-changes`,
  removedMinor: `${SPEC_ROOT}/changelog#minor-changes`,
  tasks: 'https://modelcontextprotocol.io/extensions/tasks/overview',
} as const;

type Params = Record<string, unknown> | undefined;

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function metaOf(params: Params): Record<string, unknown> | undefined {
  return record(params?._meta);
}

/** `params._meta["io.modelcontextprotocol/protocolVersion"]` of a request or notification. */
export function claimedVersion(frame: Pick<FrameEvent, 'raw'>): unknown {
  return metaOf(frameParamsObject(frame))?.[PROTOCOL_VERSION_KEY];
}

/**
 * Which generation a frame speaks, when it says: `modern` for a request (or notification) whose
 * `_meta` names 2026-07-28 or later, `legacy` for an `initialize` that does not. Anything else
 * says nothing. Only frames whose text names a protocol version are parsed (the parse is shared,
 * frame-message.ts), so a 2025 session pays one `includes` per request it sends.
 */
export function frameEra(frame: Pick<FrameEvent, 'raw' | 'rpc' | 'method'>): Era | undefined {
  if (frame.rpc !== 'request' && frame.rpc !== 'notification') return undefined;
  const legacy = frame.method === 'initialize' ? 'legacy' : undefined;
  if (!frame.raw.includes('protocolVersion')) return legacy;
  return isModernVersion(claimedVersion(frame)) ? 'modern' : legacy;
}

// ---------------------------------------------------------------------------------------------
// HTTP: the request metadata headers, session ids, the standalone GET stream.

/** Which body field `Mcp-Name` mirrors, per method (the spec's table of standard request headers). */
const NAME_FIELD: Readonly<Record<string, 'name' | 'uri'>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

const BASE64_START = '=?base64?';
const BASE64_END = '?=';

/**
 * A header value as the sender meant it: `=?base64?…?=` is UTF-8 in Base64 (the spec's value
 * encoding). Written here because the SDK's decoder is internal to its server package.
 */
export function decodeHeaderValue(value: string | undefined): string | undefined {
  if (value === undefined || !value.startsWith(BASE64_START) || !value.endsWith(BASE64_END) || value.length < BASE64_START.length + BASE64_END.length) return value;
  try {
    const bytes = Uint8Array.from(atob(value.slice(BASE64_START.length, -BASE64_END.length)), (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return value;
  }
}

/** A POST of the MCP endpoint: the transport asks for JSON or a stream (OAuth's token POSTs do not). */
export function isMcpPost(exchange: Pick<HttpEvent, 'method' | 'requestHeaders'>): boolean {
  return exchange.method === 'POST' && (exchange.requestHeaders.accept ?? '').includes('text/event-stream');
}

/**
 * Which of the request bodies still waiting (oldest first) an HTTP exchange carried. The tap
 * (proxy/upstream/http/tap.ts) notes the time, records the body's frames and then sends; it records the
 * exchange once the answer's headers are in, with `durationMs` counted from that noted time. So
 * the body is the first frame recorded at or after `ts - durationMs`; the last one before is the
 * fallback for clock noise. -1 when nothing waits.
 */
export function pickBody(exchange: Pick<HttpEvent, 'ts' | 'durationMs'>, waiting: ReadonlyArray<{ ts: number }>): number {
  const started = exchange.ts - exchange.durationMs;
  for (let i = 0; i < waiting.length; i += 1) if (waiting[i].ts >= started) return i;
  return waiting.length - 1;
}

const quote = (value: unknown): string => JSON.stringify(value) ?? String(value);

function compare(header: string, sent: string | undefined, body: string | undefined, bodySays: string, bodyLacks: string): string | undefined {
  if (sent === body) return undefined;
  if (sent === undefined) return `${header} is missing, but ${bodySays}`;
  return `${header} says ${quote(sent)}, but ${body === undefined ? bodyLacks : bodySays}`;
}

/**
 * A modern request POSTed with `MCP-Protocol-Version`, `Mcp-Method` or `Mcp-Name` missing or
 * saying something else than its body. Header names are lower case in the trace (the tap's).
 */
export function headerViolation(exchange: Pick<HttpEvent, 'requestHeaders'>, body: Pick<FrameEvent, 'raw' | 'rpc' | 'method'>): Violation | undefined {
  if (body.rpc !== 'request' || body.method === undefined) return undefined;
  const params = frameParamsObject(body);
  const version = metaOf(params)?.[PROTOCOL_VERSION_KEY];
  if (!isModernVersion(version)) return undefined;
  const headers = exchange.requestHeaders;
  const problems = [
    compare('MCP-Protocol-Version', headers['mcp-protocol-version'], version, `the body's _meta says ${quote(version)}`, ''),
    compare('Mcp-Method', headers['mcp-method'], body.method, `the body's method is ${quote(body.method)}`, ''),
  ];
  const field = NAME_FIELD[body.method];
  if (field !== undefined) {
    const value = typeof params?.[field] === 'string' ? (params[field] as string) : undefined;
    problems.push(compare('Mcp-Name', decodeHeaderValue(headers['mcp-name']), value, `the body's params.${field} is ${quote(value)}`, `the body has no params.${field}`));
  }
  const found = problems.filter((p): p is string => p !== undefined);
  if (found.length === 0) return undefined;
  return { code: 'header-mismatch', message: `The HTTP headers do not match the body: ${found.join('; ')}.`, spec: SPEC.headers };
}

/** The same violation, once the server answered the request with a result instead of rejecting it. */
export function serverAccepted(violation: Violation, status: number): Violation {
  return { ...violation, message: `${violation.message} The server answered ${status} with a result; it should have rejected the request with HTTP 400 and error -32020 (HeaderMismatch).` };
}

/** `Mcp-Session-Id` on an exchange of a stateless (2026-07-28) session, either way. */
export function sessionIdViolation(exchange: Pick<HttpEvent, 'requestHeaders' | 'responseHeaders'>): Violation | undefined {
  const minted = exchange.responseHeaders?.['mcp-session-id'];
  const sent = exchange.requestHeaders['mcp-session-id'];
  if (minted === undefined && sent === undefined) return undefined;
  const who =
    minted !== undefined
      ? `The server sent Mcp-Session-Id ${quote(minted)}${sent !== undefined ? ` (and the request carried ${quote(sent)})` : ''}`
      : `The request carried Mcp-Session-Id ${quote(sent)}`;
  return { code: 'session-id-stateless', message: `${who} on a 2026-07-28 session, which has no sessions: servers should neither mint nor echo one, and clients should not send one.`, spec: SPEC.sessions };
}

/** A standalone GET stream (the 2025 way to receive server messages) on a 2026-07-28 session. */
export function standaloneGetViolation(exchange: Pick<HttpEvent, 'method' | 'requestHeaders' | 'status'>): Violation | undefined {
  if (exchange.method !== 'GET' || !(exchange.requestHeaders.accept ?? '').includes('text/event-stream')) return undefined;
  const refused = exchange.status === 405 ? ' (the server answered 405, as it should)' : '';
  return { code: 'deprecated-method', message: `A standalone GET stream was opened on a 2026-07-28 session, which removed it${refused}; notifications come on a subscriptions/listen request instead.`, spec: SPEC.sessions };
}

// ---------------------------------------------------------------------------------------------
// Methods that 2026-07-28 removed, and server→client requests.

const REMOVED: ReadonlyMap<string, { message: string; spec: string }> = new Map([
  ['ping', { message: 'ping was removed in 2026-07-28; each request stands alone, and server/discover tells whether a server answers.', spec: SPEC.removed }],
  ['logging/setLevel', { message: `logging/setLevel was removed in 2026-07-28; the log level goes in each request's _meta ("io.modelcontextprotocol/logLevel").`, spec: SPEC.removed }],
  ['resources/subscribe', { message: 'resources/subscribe was removed in 2026-07-28; open subscriptions/listen with the URI in resourceSubscriptions instead.', spec: SPEC.removed }],
  ['resources/unsubscribe', { message: 'resources/unsubscribe was removed in 2026-07-28; end the subscriptions/listen request (or listen again without the URI) instead.', spec: SPEC.removed }],
  ['initialize', { message: 'initialize does not exist in 2026-07-28 (there is no handshake); server/discover tells what a server supports, and each request names its version in _meta.', spec: SPEC.handshake }],
  ['notifications/initialized', { message: 'notifications/initialized belongs to the 2025 handshake, which 2026-07-28 removed; nothing needs to be sent before a request.', spec: SPEC.handshake }],
  ['notifications/roots/list_changed', { message: 'notifications/roots/list_changed was removed in 2026-07-28; a server that needs roots asks for them in an input_required result.', spec: SPEC.removed }],
  ['notifications/elicitation/complete', { message: 'notifications/elicitation/complete was removed in 2026-07-28; the client learns the outcome by retrying the original request.', spec: SPEC.removedMinor }],
]);

const INPUT_REQUEST_METHODS = new Set(['sampling/createMessage', 'elicitation/create', 'roots/list']);

/**
 * A frame of a 2026-07-28 session using what that version removed, or a JSON-RPC request from
 * the server (which it no longer sends: what it needs comes in an `input_required` result).
 */
export function deprecatedMethodViolation(frame: Pick<FrameEvent, 'dir' | 'rpc' | 'method'>): Violation | undefined {
  if (frame.method === undefined || (frame.rpc !== 'request' && frame.rpc !== 'notification')) return undefined;
  const removed = REMOVED.get(frame.method);
  if (removed) return { code: 'deprecated-method', ...removed };
  if (frame.dir !== 'in' || frame.rpc !== 'request') return undefined;
  const message = INPUT_REQUEST_METHODS.has(frame.method)
    ? `The server sent ${frame.method} as a JSON-RPC request, which 2026-07-28 no longer allows; it belongs in an input_required result of the call that needs it.`
    : `The server sent a ${frame.method} request; in 2026-07-28 a server sends no requests of its own (what it needs from the client comes in an input_required result).`;
  return { code: 'deprecated-method', message, spec: SPEC.serverRequests };
}

// ---------------------------------------------------------------------------------------------
// resultType.

const INPUT_REQUIRED_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

function present(result: Record<string, unknown>, key: string): boolean {
  return result[key] !== undefined && result[key] !== null;
}

function declaresTasks(request: Pick<FrameEvent, 'raw'>): boolean {
  const capabilities = record(metaOf(frameParamsObject(request))?.[CLIENT_CAPABILITIES_KEY]);
  return record(capabilities?.extensions)?.[TASKS_EXTENSION] !== undefined;
}

const RESULT_TYPE_KEY = '"resultType"';

/**
 * Whether a result's text may carry a `resultType` other than "complete". Every 2026-07-28 result
 * names one, nearly always "complete": one such key and no other is decided without a parse (an
 * escaped `\"resultType\"` inside a string does not match the key).
 */
function mayNotBeComplete(raw: string): boolean {
  const at = raw.indexOf(RESULT_TYPE_KEY);
  if (at < 0) return false;
  return !raw.startsWith(`${RESULT_TYPE_KEY}:"complete"`, at) || raw.includes(RESULT_TYPE_KEY, at + 1);
}

/**
 * A result whose `resultType` does not fit the request it answers: `input_required` on a method
 * that may not return it or carrying nothing to act on, `task` on anything but tools/call or to a
 * request that did not declare the tasks extension, or a value no one defined.
 */
export function resultTypeViolation(request: Pick<FrameEvent, 'raw' | 'method'>, response: Pick<FrameEvent, 'raw' | 'rpc'>): Violation | undefined {
  if (response.rpc !== 'response' || !mayNotBeComplete(response.raw)) return undefined;
  const result = record(record(frameMessage(response))?.result);
  const type = result?.resultType;
  if (result === undefined || type === undefined || type === 'complete') return undefined;
  const method = request.method ?? 'this request';
  if (type === 'input_required') {
    if (!INPUT_REQUIRED_METHODS.has(method)) {
      return { code: 'result-type', message: `The server answered ${method} with resultType "input_required", which only tools/call, prompts/get and resources/read may return.`, spec: SPEC.inputRequiredMethods };
    }
    if (!present(result, 'inputRequests') && !present(result, 'requestState')) {
      return { code: 'result-type', message: 'The input_required result carries neither inputRequests nor requestState, so the client has nothing to answer or echo; the server must send at least one.', spec: SPEC.inputRequiredContent };
    }
    return undefined;
  }
  if (type === 'task') {
    if (method !== 'tools/call') return { code: 'result-type', message: `The server answered ${method} with resultType "task"; the tasks extension returns a task handle for tools/call only.`, spec: SPEC.tasks };
    if (!declaresTasks(request)) return { code: 'result-type', message: `The server answered with a task, but the request did not declare the ${TASKS_EXTENSION} extension in its client capabilities.`, spec: SPEC.extensions };
    return undefined;
  }
  return { code: 'result-type', message: `resultType ${quote(type)} is not one the client knows ("complete", "input_required", or "task" with the tasks extension), so it must treat the result as invalid.`, spec: SPEC.resultType };
}
