import { describe, expect, it } from 'vitest';
import type { FrameEvent, TraceEvent } from '../wire/wire.ts';
import { SpanBuilder, MAX_EVENTS } from './span-builder.ts';
import type { SpanData } from './span.ts';
import { formatTraceparent } from './traceparent.ts';

let seq = 0;
function frame(dir: 'out' | 'in', message: Record<string, unknown>, ts = 1000 + seq): FrameEvent {
  const raw = JSON.stringify({ jsonrpc: '2.0', ...message });
  const rpc = 'method' in message ? ('id' in message ? 'request' : 'notification') : 'error' in message ? 'error' : 'response';
  return { kind: 'frame', session: 's1', seq: ++seq, ts, dir, raw, size: raw.length, rpc, method: message.method as string | undefined, id: message.id as string | number | undefined };
}

function build(source: 'loupe' | 'tap' | 'gateway', events: TraceEvent[], content = false, transport: 'stdio' | 'http' = 'stdio'): SpanData[] {
  const spans: SpanData[] = [];
  const builder = new SpanBuilder({ source, transport, content, onSpan: (s) => spans.push(s), resource: { 'service.name': 'mcp-loupe' } });
  for (const event of events) builder.see(event);
  return spans;
}

const TP = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), sampled: true };

describe('SpanBuilder: spans of the MCP semantic conventions from recorded frames', () => {
  it('makes a tools/call a client span named by its tool, with the context Loupe injected', () => {
    const spans = build('loupe', [
      frame('out', { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', clientInfo: { name: 'mcp-loupe', version: '1' } } }),
      frame('in', { id: 1, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }),
      frame('out', { id: 2, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' }, _meta: { traceparent: formatTraceparent(TP) } } }, 2000),
      frame('in', { id: 2, result: { content: [{ type: 'text', text: 'hi' }] } }, 2012.5),
    ]);
    expect(spans.map((s) => s.name)).toEqual(['initialize', 'tools/call echo']);
    const call = spans[1];
    expect(call).toMatchObject({ traceId: TP.traceId, spanId: TP.spanId, kind: 'client', startMs: 2000, endMs: 2012.5, status: { code: 'unset' } });
    expect(call.parentSpanId).toBeUndefined();
    expect(call.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'jsonrpc.request.id': '2', 'gen_ai.tool.name': 'echo', 'gen_ai.operation.name': 'execute_tool', 'mcp.protocol.version': '2025-11-25', 'network.transport': 'pipe' });
    expect(call.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(call.attributes['gen_ai.tool.call.result']).toBeUndefined();
    expect(call.resource).toEqual({ 'service.name': 'mcp-loupe' });
  });

  it('makes a replay (the same traceparent sent again as written) a child of the first call, not a second span with its id', () => {
    const stamped = { name: 'echo', _meta: { traceparent: formatTraceparent(TP) } };
    const spans = build('loupe', [frame('out', { id: 1, method: 'tools/call', params: stamped }), frame('in', { id: 1, result: {} }), frame('out', { id: 'r', method: 'tools/call', params: stamped }), frame('in', { id: 'r', result: {} })]);
    expect(spans[0].spanId).toBe(TP.spanId);
    expect(spans[1]).toMatchObject({ traceId: TP.traceId, parentSpanId: TP.spanId });
    expect(spans[1].spanId).not.toBe(TP.spanId);
  });

  it('says error.type: tool_error for isError, the JSON-RPC code for an error; arguments and results only with content', () => {
    const spans = build('loupe', [
      frame('out', { id: 1, method: 'tools/call', params: { name: 'fail', arguments: { a: 1 } } }),
      frame('in', { id: 1, result: { content: [], isError: true } }),
      frame('out', { id: 2, method: 'resources/read', params: { uri: 'file:///x' } }),
      frame('in', { id: 2, error: { code: -32002, message: 'Resource not found' } }),
    ], true);
    expect(spans[0].attributes).toMatchObject({ 'error.type': 'tool_error', 'gen_ai.tool.call.arguments': '{"a":1}', 'gen_ai.tool.call.result': '{"content":[],"isError":true}' });
    expect(spans[0].status.code).toBe('error');
    expect(spans[1]).toMatchObject({ name: 'resources/read', status: { code: 'error', message: 'Resource not found' } });
    expect(spans[1].attributes).toMatchObject({ 'error.type': '-32002', 'mcp.resource.uri': 'file:///x' });
  });

  it('puts a host’s requests under the context the host sent, with its clientInfo as the resource', () => {
    const spans = build('tap', [
      frame('out', { id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', clientInfo: { name: 'claude-ai', version: '0.1.0' } } }),
      frame('in', { id: 0, result: { protocolVersion: '2025-11-25' } }),
      frame('out', { id: 1, method: 'tools/call', params: { name: 'echo', _meta: { traceparent: formatTraceparent(TP) } } }),
      frame('in', { id: 1, result: { content: [] } }),
    ]);
    expect(spans[1]).toMatchObject({ traceId: TP.traceId, parentSpanId: TP.spanId });
    expect(spans[1].spanId).not.toBe(TP.spanId);
    expect(spans[1].resource).toMatchObject({ 'service.name': 'mcp-loupe', 'mcp.client.name': 'claude-ai', 'mcp.client.version': '0.1.0' });
  });

  it('never says mcp.session.id on a 2026-07-28 session; says it on a 2025-11-25 HTTP session', () => {
    const http = (v: string) => [
      { kind: 'http', session: 's1', seq: ++seq, ts: 1, method: 'POST', url: 'http://x/mcp', status: 200, requestHeaders: {}, responseHeaders: { 'Mcp-Session-Id': 'abc' }, durationMs: 1 } as TraceEvent,
      frame('out', { id: 1, method: 'initialize', params: { protocolVersion: v } }),
      frame('in', { id: 1, result: { protocolVersion: v } }),
      frame('out', { id: 2, method: 'tools/list' }),
      frame('in', { id: 2, result: { tools: [] } }),
    ];
    const old = build('loupe', http('2025-11-25'), false, 'http');
    expect(old[1].attributes).toMatchObject({ 'mcp.session.id': 'abc', 'network.transport': 'tcp' });
    const modern = build('loupe', http('2026-07-28'), false, 'http');
    expect(modern.every((s) => !('mcp.session.id' in s.attributes))).toBe(true);
  });

  it('makes progress, notifications and interventions span events, bounded; the server’s requests child spans', () => {
    const events: TraceEvent[] = [frame('out', { id: 7, method: 'tools/call', params: { name: 'slow', _meta: { progressToken: 't' } } })];
    for (let i = 0; i < MAX_EVENTS + 5; i++) events.push(frame('in', { method: 'notifications/progress', params: { progressToken: 't', progress: i, total: 200 } }));
    events.push(frame('in', { id: 'srv1', method: 'sampling/createMessage', params: {} }), frame('out', { id: 'srv1', result: {} }));
    events.push({ kind: 'intervention', session: 's1', seq: ++seq, ts: 5000, dir: 'in', by: 'rule', rule: { id: 'r', name: 'slow down', action: 'delay' }, action: 'delayed', message: 'Delayed 10 ms', original: JSON.stringify({ jsonrpc: '2.0', id: 7, result: {} }) });
    events.push(frame('in', { id: 7, result: { content: [] } }));
    const spans = build('loupe', events);
    const call = spans.find((s) => s.name === 'tools/call slow')!;
    const sampling = spans.find((s) => s.name === 'sampling/createMessage')!;
    expect(sampling).toMatchObject({ kind: 'server', traceId: call.traceId, parentSpanId: call.spanId });
    expect(call.events).toHaveLength(MAX_EVENTS);
    expect(call.events[0]).toMatchObject({ name: 'notifications/progress', attributes: { 'mcp_loupe.progress': 0, 'mcp_loupe.progress.total': 200 } });
    expect(call.attributes['mcp_loupe.events.dropped']).toBe(6);
  });

  it('ends calls still open when the session ends, and counts notifications outside any call', () => {
    const spans: SpanData[] = [];
    const builder = new SpanBuilder({ source: 'loupe', transport: 'stdio', content: false, onSpan: (s) => spans.push(s) });
    builder.see(frame('in', { method: 'notifications/message', params: { level: 'info' } }));
    builder.see(frame('out', { id: 1, method: 'ping' }));
    builder.end(9999);
    expect(builder.unattached).toBe(1);
    expect(spans[0]).toMatchObject({ name: 'ping', endMs: 9999, attributes: { 'mcp_loupe.unanswered': true } });
  });
});
