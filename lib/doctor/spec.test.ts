import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpecSchemas, schemaVersion, specFindingsOf, validateFrame, type FrameContext } from './spec.ts';
import type { FrameEvent, SpecEvent, TraceEvent } from '../wire/wire.ts';

const IN: FrameContext = { dir: 'in', era: 'legacy' };
const OUT: FrameContext = { dir: 'out', era: 'legacy' };
const check = (message: unknown, context: FrameContext = IN) => validateFrame(JSON.stringify(message), context);
const answer = (method: string, result: unknown, era: FrameContext['era'] = 'legacy') => check({ jsonrpc: '2.0', id: 1, result }, { dir: 'in', era, requestMethod: method });

describe('validateFrame: the JSON-RPC envelope', () => {
  it('names a jsonrpc other than "2.0"', () => {
    expect(check({ jsonrpc: '1.0', method: 'notifications/message', params: { level: 'info', data: 'x' } })).toEqual({ version: '2025-11-25', schema: 'JSONRPCNotification', issues: ['jsonrpc: expected "2.0", got "1.0"'] });
    expect(check({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } })).toBeUndefined();
  });

  it('names a response that carries both result and error', () => {
    expect(check({ jsonrpc: '2.0', id: 1, result: {}, error: { code: -32603, message: 'x' } })?.issues).toEqual(['(frame): has both "result" and "error"; a response carries exactly one of them']);
    expect(check({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'x' } })).toBeUndefined();
  });

  it('names a notification that carries an id, and a request sent without one', () => {
    expect(check({ jsonrpc: '2.0', id: 'n1', method: 'notifications/message', params: { level: 'info', data: 'x' } })?.issues).toEqual(['id: notifications/message is a notification, so it must not carry an id']);
    expect(check({ jsonrpc: '2.0', method: 'tools/list' }, OUT)?.issues).toEqual(['id: required (tools/list is a request)']);
    expect(check({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, OUT)).toBeUndefined();
  });

  it('checks ids, error codes and what is not a message at all', () => {
    expect(check({ jsonrpc: '2.0', id: null, method: 'ping' })?.issues).toEqual(['id: expected string or number, got null']);
    expect(check({ jsonrpc: '2.0', id: 1, error: { code: 'oops', message: 'x' } })?.issues).toEqual(['error.code: expected number, got a string']);
    expect(check({ jsonrpc: '2.0', id: 1 })?.issues[0]).toContain('neither a request, a notification nor a response');
    expect(check(42)?.issues).toEqual(['(frame): expected a JSON-RPC message (an object), got a number']);
    expect(validateFrame('not json', IN)).toBeUndefined();
  });

  it('allows batches only in 2025-03-26, and checks each message of one', () => {
    const batch = [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '1.0', method: 'notifications/initialized' }];
    expect(check(batch, { ...OUT, protocolVersion: '2025-06-18' })?.issues[0]).toContain('a JSON-RPC batch, which 2025-06-18 does not allow');
    expect(check(batch, { ...OUT, protocolVersion: '2025-03-26' })?.issues).toEqual(['[1].jsonrpc: expected "2.0", got "1.0"']);
    expect(check([batch[0]], { ...OUT, protocolVersion: '2025-03-26' })).toBeUndefined();
  });

  it('leaves alone what the SDK is stricter about than the spec: extra members, ISO 8601 dates', () => {
    expect(check({ jsonrpc: '2.0', id: 1, result: { extra: true }, note: 'extra member' }, { ...IN, requestMethod: 'ping' })).toBeUndefined();
    expect(answer('resources/list', { resources: [{ uri: 'a://b', name: 'b', annotations: { lastModified: '2025-01-12' } }] })).toBeUndefined();
  });
});

describe('validateFrame: requests, notifications and results by method', () => {
  it('checks a request against its method', () => {
    expect(check({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: {} } }, OUT)).toMatchObject({ schema: 'CallToolRequest', issues: ['params.name: required'] });
    expect(check({ jsonrpc: '2.0', id: 1, method: 'sampling/createMessage', params: { messages: [{ role: 'bot', content: { type: 'text', text: 'x' } }], maxTokens: 9 } })?.issues).toEqual(['params.messages[0].role: expected "user" or "assistant", got "bot"']);
    // A method the spec does not define is JSON-RPC only.
    expect(check({ jsonrpc: '2.0', id: 1, method: 'vendor/anything', params: { whatever: 1 } }, OUT)).toBeUndefined();
  });

  it('checks a notification against its method', () => {
    expect(check({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 'half' } })).toMatchObject({ schema: 'ProgressNotification', issues: ['params.progress: expected number, got a string'] });
    expect(check({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 0.5 } })).toBeUndefined();
  });

  it('checks a result against the result schema of its request', () => {
    expect(answer('tools/list', { tools: [{ name: 'ok', inputSchema: { type: 'object' } }, { name: 'bare' }] })).toEqual({ version: '2025-11-25', schema: 'ListToolsResult', issues: ['result.tools[1].inputSchema: required'] });
    expect(answer('tools/list', { tools: [{ name: 'a', inputSchema: { type: 'string' } }] })?.issues).toEqual(['result.tools[0].inputSchema.type: expected "object", got "string"']);
    expect(answer('tools/list', { tools: [{ name: 'a', inputSchema: { type: 'object' } }] })).toBeUndefined();
    expect(answer('initialize', { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'x' } })).toMatchObject({ schema: 'InitializeResult', issues: ['result.serverInfo.version: required'] });
    // The same result under another method is not a tools/list result.
    expect(answer('tools/call', { tools: [{ name: 'bare' }] })).toBeUndefined();
    // Without the request's method only the envelope is known.
    expect(check({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'bare' }] } })).toBeUndefined();
  });

  it('tells a content block of an unknown type by the types the spec allows, and a known one by what it lacks', () => {
    expect(answer('tools/call', { content: [{ type: 'video', url: 'x' }] })?.issues).toEqual(['result.content[0].type: "video" is not one of "text", "image", "audio", "resource_link", "resource"']);
    expect(answer('tools/call', { content: [{ type: 'text' }] })?.issues).toEqual(['result.content[0].text: required']);
    expect(answer('tools/call', { content: [{ type: 'image', data: '!not base64!', mimeType: 'image/png' }] })?.issues).toEqual(['result.content[0].data: invalid Base64 string']);
    expect(answer('tools/call', { content: [{ type: 'text', text: 'fine' }] })).toBeUndefined();
  });

  it('checks a task handle as one (2025-11-25 tasks)', () => {
    expect(answer('tools/call', { task: { taskId: 't1', status: 'working', createdAt: '2025-01-01T00:00:00Z' } })?.schema).toBe('CreateTaskResult');
    expect(answer('tools/call', { task: { taskId: 't1', status: 'working', createdAt: '2025-01-01T00:00:00Z', lastUpdatedAt: '2025-01-01T00:00:00Z', ttl: null } })).toBeUndefined();
  });

  it('keeps a frame that is wrong everywhere short', () => {
    const tools = Array.from({ length: 30 }, (_, i) => ({ name: i }));
    const found = answer('tools/list', { tools });
    expect(found?.issues).toHaveLength(8);
    expect(found?.issues[7]).toMatch(/^… and \d+ more$/);
  });

  it('names the dated schema of the negotiated version', () => {
    expect(schemaVersion('legacy', '2025-06-18')).toBe('2025-06-18');
    expect(schemaVersion('legacy', '1999-01-01')).toBe('2025-11-25');
    expect(schemaVersion('legacy')).toBe('2025-11-25');
    expect(schemaVersion('modern', '2025-06-18')).toBe('2026-07-28');
    expect(check({ jsonrpc: '1.0', method: 'x' }, { ...IN, protocolVersion: '2025-06-18' })?.version).toBe('2025-06-18');
  });
});

describe('validateFrame: 2026-07-28 with the v2 core schemas', () => {
  const modern = (message: unknown, context: Partial<FrameContext> = {}) => validateFrame(JSON.stringify(message), { dir: 'in', era: 'modern', ...context });
  beforeAll(() => loadSpecSchemas('modern'));

  it('checks results by method, the wire members (resultType, cache hints, _meta keys) allowed', () => {
    expect(modern({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools: [{ name: 'a' }] } }, { requestMethod: 'tools/list' })).toEqual({ version: '2026-07-28', schema: 'ListToolsResult', issues: ['result.tools[0].inputSchema: required'] });
    expect(modern({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools: [{ name: 'a', inputSchema: { type: 'object' } }] } }, { requestMethod: 'tools/list' })).toBeUndefined();
    expect(modern({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }, { dir: 'out' })).toBeUndefined();
  });

  it('checks the methods 2026-07-28 added, and leaves a result that is not complete to its resultType', () => {
    expect(modern({ jsonrpc: '2.0', id: 1, result: { supportedVersions: '2026-07-28', capabilities: {} } }, { requestMethod: 'server/discover' })).toMatchObject({ schema: 'DiscoverResult', issues: ['result.supportedVersions: expected array, got a string'] });
    expect(modern({ jsonrpc: '2.0', id: 1, result: { supportedVersions: ['2026-07-28'], capabilities: {} } }, { requestMethod: 'server/discover' })).toBeUndefined();
    expect(modern({ jsonrpc: '2.0', id: 1, result: { resultType: 'input_required', inputRequests: {} } }, { requestMethod: 'tools/list' })).toBeUndefined();
  });
});

describe('specFindingsOf', () => {
  let seq = 0;
  const frame = (dir: FrameEvent['dir'], message: Record<string, unknown>, rpc: FrameEvent['rpc']): FrameEvent => {
    const raw = JSON.stringify(message);
    return { session: 's1', seq: ++seq, ts: seq, kind: 'frame', dir, raw, size: raw.length, rpc, method: message.method as string | undefined, id: message.id as string | number | undefined };
  };
  const spec = (of: number, issues: string[], schema = 'ListToolsResult'): SpecEvent => ({ session: 's1', seq: ++seq, ts: seq, kind: 'spec', of, version: '2025-11-25', schema, issues });

  it('makes one finding per frame the server broke, named by its request, linked to the schema reference', () => {
    const request = frame('out', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'request');
    const response = frame('in', { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'bare' }] } }, 'response');
    const events: TraceEvent[] = [request, response, spec(response.seq, ['result.tools[0].inputSchema: required'])];
    expect(specFindingsOf(events)).toEqual([
      {
        severity: 'error',
        about: { kind: 'frame', seq: response.seq, method: 'tools/list' },
        rule: 'spec-schema',
        message: `The server's tools/list response #${response.seq} breaks the 2025-11-25 schema (ListToolsResult): result.tools[0].inputSchema: required.`,
        fix: "Make the server's tools/list response match the ListToolsResult definition in the 2025-11-25 schema reference.",
        source: { label: 'MCP 2025-11-25 schema: ListToolsResult', url: 'https://modelcontextprotocol.io/specification/2025-11-25/schema' },
      },
    ]);
    expect(specFindingsOf([request, response])).toEqual([]);
  });

  it('counts frames broken the same way as one finding, gives a fix for the usual mistakes, and leaves Loupe’s own frames out', () => {
    const notes = [1, 2, 3].map(() => frame('in', { jsonrpc: '1.0', method: 'notifications/message' }, 'invalid'));
    const mine = frame('out', { jsonrpc: '2.0', id: 'x', method: 'tools/call' }, 'request');
    const events: TraceEvent[] = [...notes, mine, ...notes.map((n) => spec(n.seq, ['jsonrpc: expected "2.0", got "1.0"'], 'JSONRPCNotification')), spec(mine.seq, ['params.name: required'], 'CallToolRequest')];
    const findings = specFindingsOf(events);
    expect(findings).toHaveLength(1);
    expect(findings[0].message).toBe(`The server's notifications/message notification #${notes[0].seq} breaks the 2025-11-25 schema (JSONRPCNotification): jsonrpc: expected "2.0", got "1.0" (and 2 more frames like it).`);
    expect(findings[0].fix).toBe('Send "jsonrpc": "2.0" in every message.');
  });
});
