/**
 * Tracing end to end in one process (issue 28): a real Loupe launched with `--otlp` against the
 * fixture server instrumented with the OpenTelemetry SDK, a real OTLP receiver (a plain HTTP
 * server here) as the team's collector. Loupe's call carries a traceparent; the server's spans
 * come back to Loupe's /v1/traces and are recorded under that call; both sides reach the
 * collector, masked.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { fromOtlpJson } from '../../lib/otel/otlp-json.ts';
import type { SpanData } from '../../lib/otel/span.ts';
import { contextOf } from '../../lib/otel/traceparent.ts';
import { frameMessage } from '../../lib/trace/frame-message.ts';
import type { FrameEvent, SpansEvent } from '../../lib/wire/events.ts';
import { parseWorkspace } from '../../lib/workspace/workspace.ts';
import { LoupeHarness } from '../testing/harness.ts';

const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/otel-server.mjs', import.meta.url));
const SECRET = 'fixture-secret-9f8e7d6c';
const harness = new LoupeHarness();
let collector: Server | undefined;
afterEach(async () => {
  await harness.closeAll();
  await new Promise((resolve) => (collector ? collector.close(resolve) : resolve(undefined)));
});

/** The team's collector: keeps each JSON body it is sent, and the headers. */
async function startCollector(): Promise<{ url: string; bodies: string[]; headers: Record<string, unknown>[] }> {
  const bodies: string[] = [];
  const headers: Record<string, unknown>[] = [];
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => (bodies.push(Buffer.concat(chunks).toString('utf8')), headers.push(req.headers), res.writeHead(200, { 'content-type': 'application/json' }).end('{}')));
  });
  await new Promise<void>((resolve) => collector!.listen(0, '127.0.0.1', resolve));
  const address = collector.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, bodies, headers };
}

function post(port: number, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/v1/traces', method: 'POST', headers }, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
    req.on('error', reject);
    req.end(body);
  });
}

async function start(collectorUrl: string) {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-otel-'));
  const path = join(dir, 'mcp.json');
  const text = JSON.stringify({ mcpServers: { weather: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_SECRET: '${env:FIXTURE_SECRET}' } } } });
  writeFileSync(path, text);
  const parsed = parseWorkspace(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return harness.start({ workspace: { path, text, workspace: parsed.value }, cwd: dir, env: { ...process.env, FIXTURE_SECRET: SECRET }, otel: { url: collectorUrl, protocol: 'http/json', content: true, traceparent: true, receive: false } });
}

describe('tracing a session (issue 28)', () => {
  it('stamps Loupe’s call, joins the server’s spans to it, and exports both sides masked', { timeout: 30_000 }, async () => {
    const team = await startCollector();
    const { loupe, client } = await start(team.url);
    const session = loupe.hub.primary!;
    await client.waitForStatus(session, ['connected']);
    const answer = await client.request(session, 'tools/call', { name: 'forecast', arguments: { city: 'Lisbon' } });
    expect(answer.ok).toBe(true);

    const call = await client.until(() => client.events.find((e): e is FrameEvent => e.kind === 'frame' && e.dir === 'out' && e.method === 'tools/call'), 5_000, 'the call');
    const context = contextOf(frameMessage(call))!;
    expect(context.traceId).toMatch(/^[0-9a-f]{32}$/);
    const joined = await client.until(() => { const found = client.events.filter((e): e is SpansEvent => e.kind === 'spans' && e.of === call.seq); return found.flatMap((e) => e.spans).length >= 3 ? found.flatMap((e) => e.spans) : undefined; }, 10_000, 'the server’s spans');
    const server = joined.find((s) => s.name === 'tools/call forecast')!;
    expect(server).toMatchObject({ traceId: context.traceId, parentSpanId: context.spanId, kind: 'server', resource: { 'service.name': 'weather-fixture' } });
    expect(joined.filter((s) => s.parentSpanId === server.spanId).map((s) => s.name).sort()).toEqual(['fetch forecast', 'lookup city']);
    expect(JSON.stringify(joined)).not.toContain(SECRET);

    // Loupe's receiver asks for a credential, and the launch token or the receiver token only.
    expect(await post(loupe.port, { 'content-type': 'application/json' }, '{"resourceSpans":[]}')).toBe(401);
    expect(await post(loupe.port, { 'content-type': 'application/json', authorization: `Bearer ${loupe.token}` }, '{"resourceSpans":[]}')).toBe(200);
    expect(await post(loupe.port, { 'content-type': 'application/json', authorization: `Bearer ${loupe.token}`, origin: 'http://evil.example' }, '{"resourceSpans":[]}')).toBe(403);

    await harness.closeAll();
    const exported: SpanData[] = team.bodies.flatMap((body) => { const read = fromOtlpJson(JSON.parse(body)); return read.ok ? read.spans : []; });
    const client_ = exported.find((s) => s.name === 'tools/call forecast' && s.kind === 'client')!;
    expect(client_).toMatchObject({ traceId: context.traceId, spanId: context.spanId, attributes: { 'gen_ai.tool.name': 'forecast', 'gen_ai.operation.name': 'execute_tool', 'mcp.method.name': 'tools/call', 'gen_ai.tool.call.arguments': '{"city":"Lisbon"}' } });
    expect(exported.find((s) => s.name === 'tools/call forecast' && s.kind === 'server')?.parentSpanId).toBe(context.spanId);
    const all = team.bodies.join('\n');
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain(loupe.token);
  });
});
