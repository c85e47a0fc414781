/**
 * Tracing a gateway's sessions (issue 28): the host's requests are relayed unchanged (no
 * traceparent added), and exported as spans of their own with the host's clientInfo as the
 * resource, children of the context the host sent when it sent one.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fromOtlpJson } from '../../lib/otel/otlp-json.ts';
import { contextOf, formatTraceparent, newRootContext } from '../../lib/otel/traceparent.ts';
import { frameMessage } from '../../lib/trace/frame-message.ts';
import type { FrameEvent } from '../../lib/wire/wire.ts';
import { defaultServer } from '../default-server.ts';
import { launch, type RunningLoupe } from '../launch.ts';
import { testUiRoot } from '../testing/harness.ts';

let loupe: RunningLoupe | undefined;
let client: Client | undefined;
let collector: Server | undefined;
afterEach(async () => {
  await client?.close();
  await loupe?.close();
  await new Promise((resolve) => (collector ? collector.close(resolve) : resolve(undefined)));
});

describe('tracing the gateway’s sessions (issue 28)', () => {
  it('leaves the host’s requests as they were and exports them with the host’s clientInfo, under the host’s context', { timeout: 30_000 }, async () => {
    const bodies: string[] = [];
    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => (bodies.push(Buffer.concat(chunks).toString('utf8')), res.writeHead(200, { 'content-type': 'application/json' }).end('{}')));
    });
    await new Promise<void>((resolve) => collector!.listen(0, '127.0.0.1', resolve));
    const address = collector.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    loupe = await launch({ config: defaultServer(), gateway: { port: 0 }, port: 0, uiRoot: testUiRoot(), otel: { url: `http://127.0.0.1:${port}`, protocol: 'http/json', content: false, traceparent: true, receive: false } });
    client = new Client({ name: 'host-under-test', version: '4.5.6' });
    await client.connect(new StreamableHTTPClientTransport(new URL(loupe.gatewayUrl!), { requestInit: { headers: { authorization: `Bearer ${loupe.gatewayToken}` } } }));
    await client.listTools();
    const hostContext = newRootContext();
    await client.callTool({ name: 'echo', arguments: { message: 'hi' }, _meta: { traceparent: formatTraceparent(hostContext) } });

    const session = loupe.hub.engine.sessionList().find((s) => s.snapshot().relay?.kind === 'gateway')!;
    const frames = session.trace.all().filter((e): e is FrameEvent => e.kind === 'frame' && e.dir === 'out' && e.rpc === 'request');
    const list = frames.find((f) => f.method === 'tools/list')!;
    expect(contextOf(frameMessage(list))).toBeUndefined();
    const call = frames.find((f) => f.method === 'tools/call')!;
    expect(contextOf(frameMessage(call))?.spanId).toBe(hostContext.spanId);

    await client.close();
    client = undefined;
    await loupe.close();
    loupe = undefined;
    const spans = bodies.flatMap((body) => { const read = fromOtlpJson(JSON.parse(body)); return read.ok ? read.spans : []; });
    const exported = spans.find((s) => s.name === 'tools/call echo')!;
    expect(exported).toMatchObject({ kind: 'client', traceId: hostContext.traceId, parentSpanId: hostContext.spanId, resource: { 'mcp.client.name': 'host-under-test', 'mcp.client.version': '4.5.6', 'service.name': 'mcp-loupe' }, attributes: { 'network.transport': 'pipe', 'gen_ai.tool.name': 'echo' } });
    expect(spans.find((s) => s.name === 'tools/list')?.parentSpanId).toBeUndefined();
  });
});
