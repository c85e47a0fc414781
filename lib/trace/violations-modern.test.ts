import { afterEach, describe, expect, it, vi } from 'vitest';
import { classifyRaw } from './frame-classify.ts';
import { TraceIndex } from './row-index.ts';
import {
  SPEC,
  decodeHeaderValue,
  deprecatedMethodViolation,
  frameEra,
  headerViolation,
  isMcpPost,
  isModernVersion,
  pickBody,
  resultTypeViolation,
  serverAccepted,
  sessionIdViolation,
  standaloneGetViolation,
} from './violations-modern.ts';
import type { FrameEvent, HttpEvent, TraceEvent } from '../wire/wire.ts';

// ---- frames as the wire carried them: the v2 client (@modelcontextprotocol/client 2.4.0) against
// e2e/fixtures/modern-server.mjs and modern-raw.mjs --variant broken, captured through a fetch tap.

const CLIENT = '"io.modelcontextprotocol/clientInfo":{"name":"mcp-loupe","version":"0.1.0"}';
const META = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",${CLIENT},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"sampling":{},"roots":{}}}`;
const BARE_META = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",${CLIENT},"io.modelcontextprotocol/clientCapabilities":{}}`;
const TASKS_META = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",${CLIENT},"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`;
const SERVER_INFO = '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modern-fixture","version":"1.0.0"}}';

const DISCOVER = `{"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":{${META}}}`;
const DISCOVERED = `{"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}},"resultType":"complete","ttlMs":0,"cacheScope":"private",${SERVER_INFO}},"jsonrpc":"2.0","id":"server-discover-probe-1"}`;
const ECHO = `{"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"},${META}},"jsonrpc":"2.0","id":0}`;
const ECHOED = `{"result":{"content":[{"type":"text","text":"echo: hi"}],"resultType":"complete",${SERVER_INFO}},"jsonrpc":"2.0","id":0}`;
const CONFIRM = `{"method":"tools/call","params":{"name":"confirm-delete","arguments":{"path":"/tmp/x"},${META}},"jsonrpc":"2.0","id":1}`;
const CONFIRM_ASKS = `{"result":{"resultType":"input_required","inputRequests":{"confirm":{"method":"elicitation/create","params":{"message":"Delete /tmp/x?","requestedSchema":{"type":"object","properties":{"confirm":{"type":"boolean","title":"Delete it"}},"required":["confirm"]},"mode":"form"}}},${SERVER_INFO}},"jsonrpc":"2.0","id":1}`;
const CONFIRM_AGAIN = `{"method":"tools/call","params":{"name":"confirm-delete","arguments":{"path":"/tmp/x"},"inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}},${META}},"jsonrpc":"2.0","id":2}`;
const CONFIRMED = `{"result":{"content":[{"type":"text","text":"Deleted /tmp/x"}],"resultType":"complete",${SERVER_INFO}},"jsonrpc":"2.0","id":2}`;
const PING = `{"jsonrpc":"2.0","id":9,"method":"ping","params":{${BARE_META}}}`;
const NOT_FOUND = '{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"Method not found"}}';
const MISLABELLED = `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x"},${BARE_META}}}`;
const REJECTED = '{"jsonrpc":"2.0","error":{"code":-32020,"message":"Bad Request: the request headers and body disagree: the body names method tools/call but the Mcp-Method header names tools/list"},"id":10}';
// modern-raw.mjs --variant broken
const LIST = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${BARE_META}}}`;
const LIST_ASKS = '{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","tools":[{"name":"echo","inputSchema":{"type":"object"}}],"ttlMs":0,"cacheScope":"private"}}';
const BROKEN_ECHO = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x"},${BARE_META}}}`;
const BROKEN_ECHOED = '{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"echo: x"}]}}';
const LONG_JOB = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"long-job","arguments":{"seconds":1},${TASKS_META}}}`;
const TASK = '{"jsonrpc":"2.0","id":3,"result":{"resultType":"task","taskId":"13c035b9-1f04-4798-bfce-5df23b209ad1","status":"working","ttlMs":600000,"pollIntervalMs":200}}';
// A 2025 session, as the 1.x SDK client writes it.
const INITIALIZE = '{"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"mcp-loupe","version":"0.1.0"}},"jsonrpc":"2.0","id":0}';
const LEGACY_PING = '{"method":"ping","jsonrpc":"2.0","id":1}';

const ACCEPT = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const modernHeaders = (method: string, name?: string) => ({ ...ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) });

const frame = (dir: FrameEvent['dir'], raw: string): FrameEvent => ({ session: 's', seq: 0, ts: 0, kind: 'frame', dir, raw, size: raw.length, ...classifyRaw(raw) });
const exchange = (fields: Partial<HttpEvent>): HttpEvent => ({ session: 's', seq: 0, ts: 0, kind: 'http', method: 'POST', url: 'http://127.0.0.1:4000/mcp', requestHeaders: ACCEPT, durationMs: 1, status: 200, contentType: 'application/json', ...fields });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('eras', () => {
  it('compares versions as dates', () => {
    expect([isModernVersion('2026-07-28'), isModernVersion('2027-01-15'), isModernVersion('2025-11-25'), isModernVersion(undefined)]).toEqual([true, true, false, false]);
  });
  it('tells a modern request by its _meta, a legacy session by its initialize', () => {
    expect(frameEra(frame('out', ECHO))).toBe('modern');
    expect(frameEra(frame('out', INITIALIZE))).toBe('legacy');
    expect(frameEra(frame('out', `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{${BARE_META}}}`))).toBe('modern');
    expect(frameEra(frame('out', LEGACY_PING))).toBeUndefined();
    expect(frameEra(frame('in', ECHOED))).toBeUndefined();
  });
  it('does not parse a frame that names no protocol version', () => {
    const list = frame('out', '{"method":"tools/list","jsonrpc":"2.0","id":4}');
    const parse = vi.spyOn(JSON, 'parse');
    expect(frameEra(list)).toBeUndefined();
    expect(parse).not.toHaveBeenCalled();
  });
});

describe('HTTP headers against the body', () => {
  it('finds nothing when the v2 client sent them', () => {
    expect(headerViolation(exchange({ requestHeaders: modernHeaders('tools/call', 'echo') }), frame('out', ECHO))).toBeUndefined();
    expect(headerViolation(exchange({ requestHeaders: modernHeaders('server/discover') }), frame('out', DISCOVER))).toBeUndefined();
  });
  it('says which header said what and what the body says', () => {
    const v = headerViolation(exchange({ requestHeaders: modernHeaders('tools/list', 'echo') }), frame('out', MISLABELLED));
    expect(v).toEqual({ code: 'header-mismatch', spec: SPEC.headers, message: 'The HTTP headers do not match the body: Mcp-Method says "tools/list", but the body\'s method is "tools/call".' });
    const noName = headerViolation(exchange({ requestHeaders: { ...modernHeaders('tools/call'), 'mcp-protocol-version': '2025-11-25' } }), frame('out', ECHO));
    expect(noName?.message).toBe('The HTTP headers do not match the body: MCP-Protocol-Version says "2025-11-25", but the body\'s _meta says "2026-07-28"; Mcp-Name is missing, but the body\'s params.name is "echo".');
    const read = `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"fixture://readme",${BARE_META}}}`;
    expect(headerViolation(exchange({ requestHeaders: modernHeaders('resources/read', 'fixture://other') }), frame('out', read))?.message).toMatch(/Mcp-Name says "fixture:\/\/other", but the body's params\.uri is "fixture:\/\/readme"/);
    expect(headerViolation(exchange({ requestHeaders: ACCEPT }), frame('out', LIST))?.message).toMatch(/^The HTTP headers do not match the body: MCP-Protocol-Version is missing, .*; Mcp-Method is missing, but the body's method is "tools\/list"\.$/);
  });
  it('decodes a Base64 Mcp-Name before comparing', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?=')).toBe('Hello, 世界');
    expect(decodeHeaderValue('echo')).toBe('echo');
    expect(decodeHeaderValue('=?base64?***?=')).toBe('=?base64?***?=');
    const call = `{"jsonrpc":"2.0","id":6,"method":"prompts/get","params":{"name":"Hello, 世界",${BARE_META}}}`;
    expect(headerViolation(exchange({ requestHeaders: modernHeaders('prompts/get', '=?base64?SGVsbG8sIOS4lueVjA==?=') }), frame('out', call))).toBeUndefined();
  });
  it('leaves 2025 requests and the non-requests alone', () => {
    expect(headerViolation(exchange({}), frame('out', INITIALIZE))).toBeUndefined();
    expect(headerViolation(exchange({}), frame('out', '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}'))).toBeUndefined();
  });
  it('adds that the server took it anyway', () => {
    const v = headerViolation(exchange({ requestHeaders: modernHeaders('tools/list', 'echo') }), frame('out', MISLABELLED));
    expect(serverAccepted(v!, 200).message).toMatch(/"tools\/call"\. The server answered 200 with a result; it should have rejected the request with HTTP 400 and error -32020 \(HeaderMismatch\)\.$/);
  });
  it('knows the MCP POSTs from the OAuth ones, and which body an exchange carried', () => {
    expect(isMcpPost(exchange({}))).toBe(true);
    expect(isMcpPost(exchange({ requestHeaders: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' } }))).toBe(false);
    // Three POSTs in flight; the second one's answer comes first. It began at 10.25 ms.
    const waiting = [{ ts: 10 }, { ts: 10.3 }, { ts: 10.6 }];
    expect(pickBody({ ts: 20, durationMs: 9.75 }, waiting)).toBe(1);
    expect(pickBody({ ts: 20, durationMs: 5 }, waiting)).toBe(2);
    expect(pickBody({ ts: 20, durationMs: 15 }, waiting)).toBe(0);
    expect(pickBody({ ts: 20, durationMs: 1 }, [])).toBe(-1);
  });
});

describe('sessions and streams', () => {
  it('marks a session id either way', () => {
    expect(sessionIdViolation(exchange({ responseHeaders: { 'content-type': 'application/json', 'mcp-session-id': 'broken-session-1' } }))).toEqual({
      code: 'session-id-stateless',
      spec: SPEC.sessions,
      message: 'The server sent Mcp-Session-Id "broken-session-1" on a 2026-07-28 session, which has no sessions: servers should neither mint nor echo one, and clients should not send one.',
    });
    expect(sessionIdViolation(exchange({ requestHeaders: { ...ACCEPT, 'mcp-session-id': 'abc' } }))?.message).toMatch(/^The request carried Mcp-Session-Id "abc"/);
    expect(sessionIdViolation(exchange({ responseHeaders: {} }))).toBeUndefined();
  });
  it('marks a standalone GET stream, not OAuth discovery', () => {
    const get = exchange({ method: 'GET', status: 405, requestHeaders: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' } });
    expect(standaloneGetViolation(get)?.message).toBe('A standalone GET stream was opened on a 2026-07-28 session, which removed it (the server answered 405, as it should); notifications come on a subscriptions/listen request instead.');
    expect(standaloneGetViolation(exchange({ method: 'GET', url: 'http://127.0.0.1:4000/.well-known/oauth-protected-resource', requestHeaders: { accept: 'application/json' } }))).toBeUndefined();
    expect(standaloneGetViolation(exchange({}))).toBeUndefined();
  });
});

describe('methods 2026-07-28 removed', () => {
  it('names the replacement', () => {
    const said = (raw: string, dir: FrameEvent['dir'] = 'out') => deprecatedMethodViolation(frame(dir, raw))?.message;
    expect(said(PING)).toMatch(/^ping was removed in 2026-07-28; .*server\/discover/);
    expect(said(`{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"debug",${BARE_META}}}`)).toMatch(/io\.modelcontextprotocol\/logLevel/);
    expect(said(`{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"fixture://counter",${BARE_META}}}`)).toMatch(/subscriptions\/listen/);
    expect(said('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toMatch(/2025 handshake/);
    expect(deprecatedMethodViolation(frame('out', INITIALIZE))?.spec).toBe(SPEC.handshake);
  });
  it('marks every JSON-RPC request from the server', () => {
    const elicit = deprecatedMethodViolation(frame('in', '{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{}}}}'));
    expect(elicit).toEqual({ code: 'deprecated-method', spec: SPEC.serverRequests, message: 'The server sent elicitation/create as a JSON-RPC request, which 2026-07-28 no longer allows; it belongs in an input_required result of the call that needs it.' });
    expect(deprecatedMethodViolation(frame('in', '{"jsonrpc":"2.0","id":1,"method":"x/custom"}'))?.message).toMatch(/^The server sent a x\/custom request/);
  });
  it('leaves the rest alone', () => {
    expect(deprecatedMethodViolation(frame('out', ECHO))).toBeUndefined();
    expect(deprecatedMethodViolation(frame('in', '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}'))).toBeUndefined();
    expect(deprecatedMethodViolation(frame('in', ECHOED))).toBeUndefined();
  });
});

describe('resultType', () => {
  const check = (request: string, response: string) => resultTypeViolation(frame('out', request), frame('in', response));
  it('accepts what fits', () => {
    expect(check(ECHO, ECHOED)).toBeUndefined();
    expect(check(CONFIRM, CONFIRM_ASKS)).toBeUndefined();
    expect(check(LONG_JOB, TASK)).toBeUndefined();
    expect(check(PING, NOT_FOUND)).toBeUndefined();
  });
  it('marks input_required where it may not be, or with nothing in it', () => {
    expect(check(LIST, LIST_ASKS)).toEqual({ code: 'result-type', spec: SPEC.inputRequiredMethods, message: 'The server answered tools/list with resultType "input_required", which only tools/call, prompts/get and resources/read may return.' });
    expect(check(ECHO, '{"jsonrpc":"2.0","id":0,"result":{"resultType":"input_required"}}')?.spec).toBe(SPEC.inputRequiredContent);
    expect(check(ECHO, '{"jsonrpc":"2.0","id":0,"result":{"resultType":"input_required","requestState":"e30="}}')).toBeUndefined();
  });
  it('reads a "complete" result without parsing it, unless another resultType key is in it', () => {
    const escaped = '{"jsonrpc":"2.0","id":0,"result":{"resultType":"complete","content":[{"type":"text","text":"{\\"resultType\\":\\"partial\\"}"}]}}';
    const [request, complete, quoted] = [frame('out', ECHO), frame('in', ECHOED), frame('in', escaped)];
    const parse = vi.spyOn(JSON, 'parse');
    expect(resultTypeViolation(request, complete)).toBeUndefined();
    expect(resultTypeViolation(request, quoted)).toBeUndefined();
    expect(parse).not.toHaveBeenCalled();
    expect(check(ECHO, '{"jsonrpc":"2.0","id":0,"result":{"structuredContent":{"resultType":"complete"},"resultType":"partial"}}')?.code).toBe('result-type');
    expect(check(ECHO, '{"jsonrpc":"2.0","id":0,"result":{"resultType":"complete","structuredContent":{"resultType":"partial"}}}')).toBeUndefined();
  });
  it('marks a task the request did not ask for, and values nobody defined', () => {
    const task = TASK.replace('"id":3', '"id":0');
    expect(check(ECHO, task)?.message).toBe('The server answered with a task, but the request did not declare the io.modelcontextprotocol/tasks extension in its client capabilities.');
    expect(check(`{"jsonrpc":"2.0","id":7,"method":"prompts/get","params":{"name":"greet",${TASKS_META}}}`, task)?.spec).toBe(SPEC.tasks);
    expect(check(ECHO, '{"jsonrpc":"2.0","id":0,"result":{"resultType":"partial","content":[]}}')?.message).toMatch(/^resultType "partial" is not one the client knows/);
  });
});

// ---- the trace index over whole sessions, events in the order proxy/upstream/http/tap.ts records them:
// the body's frames, then the exchange (once the answer's headers are in), then the answer's frames.

function session() {
  const events: TraceEvent[] = [];
  let clock = 1_000;
  const add = <T extends TraceEvent>(event: T): T => {
    events.push({ ...event, seq: events.length + 1 });
    return events[events.length - 1] as T;
  };
  const wire = (dir: FrameEvent['dir'], raw: string) => add({ ...frame(dir, raw), ts: (clock += 0.05) });
  /** One POST: `answer` is the response body (frames), `http` what the exchange looked like. */
  const post = (body: string, http: Partial<HttpEvent>, answer?: string) => {
    const started = (clock += 1);
    wire('out', body);
    add(exchange({ ...http, ts: (clock += 2), durationMs: clock - started }));
    if (answer) wire('in', answer);
  };
  return { events, wire, post, add };
}

const violations = (index: TraceIndex) => index.rows.flatMap((row) => (row.violations ?? []).map((v) => `#${row.seq} ${v.code}`));

describe('TraceIndex on 2026-07-28 sessions', () => {
  it('knows the era from the frames and finds nothing on a clean session', () => {
    const s = session();
    s.post(DISCOVER, { requestHeaders: modernHeaders('server/discover') }, DISCOVERED);
    s.post(ECHO, { requestHeaders: modernHeaders('tools/call', 'echo') }, ECHOED);
    s.post(CONFIRM, { requestHeaders: modernHeaders('tools/call', 'confirm-delete') }, CONFIRM_ASKS);
    s.post(CONFIRM_AGAIN, { requestHeaders: modernHeaders('tools/call', 'confirm-delete') }, CONFIRMED);
    const index = TraceIndex.from(s.events);
    expect(index.era).toBe('modern');
    expect(violations(index)).toEqual([]);
  });

  it('marks the broken server: session ids, a resultType that does not fit, a mismatch it took', () => {
    const s = session();
    const broken = { 'content-type': 'application/json', 'mcp-session-id': 'broken-session-1' };
    s.post(LIST, { requestHeaders: modernHeaders('tools/list'), responseHeaders: broken }, LIST_ASKS);
    s.post(BROKEN_ECHO, { requestHeaders: modernHeaders('tools/list', 'echo'), responseHeaders: broken });
    const index = TraceIndex.from(s.events);
    expect(violations(index)).toEqual(['#2 session-id-stateless', '#3 result-type', '#5 header-mismatch', '#5 session-id-stateless']);
    expect(index.find(5)?.violations?.[0].message).not.toMatch(/should have rejected/);
    const { touched } = index.append([{ ...frame('in', BROKEN_ECHOED), seq: 6, ts: 2_000 }]);
    expect(touched.map((row) => row.seq)).toEqual([4, 5]);
    expect(index.find(5)?.violations?.[0].message).toMatch(/The server answered 200 with a result; it should have rejected/);
    expect(index.violationRows).toBe(3);
  });

  it('keeps the mismatch a server refused as it was', () => {
    const s = session();
    s.post(MISLABELLED, { status: 400, requestHeaders: modernHeaders('tools/list', 'echo') }, REJECTED);
    const index = TraceIndex.from(s.events);
    expect(violations(index)).toEqual(['#2 header-mismatch']);
    expect(index.find(2)?.violations?.[0].message).not.toMatch(/should have rejected/);
  });

  it('matches concurrent POSTs to their own bodies', () => {
    const s = session();
    const [echo, job, confirm] = [s.wire('out', ECHO), s.wire('out', LONG_JOB), s.wire('out', CONFIRM)];
    // The middle POST's answer came first, the first one's last; each exchange's durationMs counts
    // from its own start, a little before its body was recorded.
    const answered = (body: FrameEvent, name: string, after: number) => s.add(exchange({ ts: body.ts + after, durationMs: after + 0.01, requestHeaders: modernHeaders('tools/call', name) }));
    answered(job, 'long-job', 3);
    s.wire('in', TASK);
    answered(confirm, 'confirm-delete', 4);
    s.wire('in', CONFIRM_ASKS);
    answered(echo, 'echo', 5);
    s.wire('in', ECHOED);
    expect(violations(TraceIndex.from(s.events))).toEqual([]);
  });

  it('marks removed methods, server requests and a GET stream; no capability noise', () => {
    const s = session();
    s.post(PING, { status: 404, requestHeaders: modernHeaders('ping') }, NOT_FOUND);
    s.wire('in', '{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}');
    s.add(exchange({ method: 'GET', status: 405, requestHeaders: { accept: 'text/event-stream' } }));
    const none = { sampling: false, samplingTools: false, elicitationForm: false, elicitationUrl: false, roots: false, rootsListChanged: false, tasks: false, apps: false };
    expect(violations(TraceIndex.from(s.events, none))).toEqual(['#1 deprecated-method', '#4 deprecated-method', '#5 deprecated-method']);
  });

  it('gives a 2025 session none of this, even after a 2026 probe that fell back', () => {
    const s = session();
    s.post(DISCOVER, { requestHeaders: modernHeaders('server/discover') }, '{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":"server-discover-probe-1"}');
    const minted = { 'content-type': 'text/event-stream', 'mcp-session-id': 'a1b2' };
    s.post(INITIALIZE, { responseHeaders: minted }, '{"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"x","version":"1"}},"jsonrpc":"2.0","id":0}');
    s.post('{"method":"notifications/initialized","jsonrpc":"2.0"}', { status: 202, requestHeaders: { ...ACCEPT, 'mcp-session-id': 'a1b2' } });
    s.post(LEGACY_PING, { requestHeaders: { ...ACCEPT, 'mcp-session-id': 'a1b2' } }, '{"result":{},"jsonrpc":"2.0","id":1}');
    s.add(exchange({ method: 'GET', requestHeaders: { accept: 'text/event-stream', 'mcp-session-id': 'a1b2' }, contentType: 'text/event-stream' }));
    s.wire('in', '{"method":"roots/list","jsonrpc":"2.0","id":0}');
    s.post('{"method":"tools/list","jsonrpc":"2.0","id":2}', { requestHeaders: { ...ACCEPT, 'mcp-session-id': 'a1b2' } }, '{"result":{"resultType":"input_required","tools":[]},"jsonrpc":"2.0","id":2}');
    const index = TraceIndex.from(s.events);
    expect(index.era).toBe('legacy');
    // What 2025 checks find is still found: roots/list without the roots capability.
    expect(violations(index)).toEqual(['#13 undeclared-capability']);
  });
});
