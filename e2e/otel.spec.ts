// OpenTelemetry (issue 28), end to end: a server instrumented with the OpenTelemetry JS SDK
// (fixtures/otel-server.mjs) exports its spans to the Loupe that started it; the page shows them
// under the tools/call that caused them. The same run exports Loupe's spans (and the server's) to a
// second, real OTLP receiver process (fixtures/otlp-receiver.mjs), which decodes them: names,
// attributes, parent links, and no secret — not the server's marked env value it leaked into a span,
// not Loupe's tokens.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './support/test.ts';
import { spawnProc, stopProc, waitForOutput, type Proc } from './support/processes.ts';
import { expectNoSeriousAxeFindings } from './support/axe.ts';
import { ready } from './pages/primitives.ts';
import { HistoryPage } from './pages/history-page.ts';
import { SpansPage } from './pages/spans-page.ts';

const SECRET = 'otel-e2e-secret-5b1c9a';
type Span = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: string; attributes: Record<string, unknown>; resource?: Record<string, unknown> };

let dir: string;
let receiver: Proc | undefined;
test.beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'loupe-otel-e2e-'))));
test.afterEach(async () => {
  if (receiver) await stopProc(receiver);
  rmSync(dir, { recursive: true, force: true });
});

test('a server’s own spans under its tools/call in the History, and every span in a second OTLP receiver, masked', async ({ launch, loupe, page }) => {
  receiver = spawnProc(process.execPath, ['e2e/fixtures/otlp-receiver.mjs']);
  const collector = (await waitForOutput(receiver, receiver.stdout, /listening (http:\/\/127\.0\.0\.1:\d+)/, 10_000, 'otlp-receiver'))[1];
  const config = join(dir, 'mcp.json');
  // The secret is a ${env:…} reference: marked secret, as a workspace file marks it.
  writeFileSync(config, JSON.stringify({ mcpServers: { weather: { command: process.execPath, args: ['e2e/fixtures/otel-server.mjs'], env: { FIXTURE_SECRET: '${env:FIXTURE_SECRET}' } } } }));
  const app = await launch(['--otlp', collector, '--otlp-content', '--config', config], { env: { ...process.env, FIXTURE_SECRET: SECRET } });
  await expect.poll(() => app.stderr()).toContain(`exporting spans to ${collector}/v1/traces (http/protobuf, from --otlp), with arguments and results`);

  await ready(loupe, app.url, 'forecast');
  await loupe.selectTool('forecast');
  await loupe.fillField('city', 'Lisbon');
  await loupe.runTool();
  await expect(loupe.result()).toContainText('Sunny in Lisbon');

  const history = new HistoryPage(loupe);
  await history.open();
  await history.row('tools/call').filter({ hasText: 'forecast' }).filter({ hasText: 'request' }).first().click();
  const spans = new SpansPage(page);
  await expect(spans.region()).toBeVisible({ timeout: 15_000 });
  for (const name of ['tools/call forecast', 'lookup city', 'fetch forecast']) await expect(spans.span(name)).toBeVisible();
  await expect(spans.span('lookup city')).toContainText('weather-fixture');
  await expect(spans.span('fetch forecast')).toContainText(/\+\d+(\.\d)? ms/);
  await spans.open('tools/call forecast');
  // The leaked value is masked in the page: the recorder masked the server's spans like its frames.
  await expect(spans.region()).toContainText('fixture.leak');
  await expect(spans.region()).not.toContainText(SECRET);
  await expectNoSeriousAxeFindings(page, 'History with a server’s spans');

  // Loupe flushes its exporter when it stops; the receiver then has both sides of the trace.
  await app.stop();
  const got = (await (await fetch(`${collector}/spans`)).json()) as { spans: Span[]; requests: { type: string }[] };
  const raw = await (await fetch(`${collector}/raw`)).text();
  expect(got.requests.every((r) => r.type === 'application/x-protobuf')).toBe(true);
  const client = got.spans.find((s) => s.kind === 'client' && s.name === 'tools/call forecast')!;
  expect(client.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'forecast', 'gen_ai.operation.name': 'execute_tool', 'network.transport': 'pipe', 'mcp.protocol.version': expect.any(String), 'gen_ai.tool.call.arguments': '{"city":"Lisbon"}' });
  expect(client.attributes['jsonrpc.request.id']).toMatch(/^loupe-\d+$/);
  expect(client.resource).toMatchObject({ 'service.name': 'mcp-loupe' });
  const server = got.spans.find((s) => s.kind === 'server' && s.name === 'tools/call forecast')!;
  expect(server).toMatchObject({ traceId: client.traceId, parentSpanId: client.spanId, resource: { 'service.name': 'weather-fixture' } });
  expect(got.spans.filter((s) => s.parentSpanId === server.spanId).map((s) => s.name).sort()).toEqual(['fetch forecast', 'lookup city']);
  expect(got.spans.find((s) => s.name === 'initialize')?.attributes['mcp.method.name']).toBe('initialize');
  expect(raw).not.toContain(SECRET);
  expect(raw).not.toContain(app.token);
  expect(JSON.stringify(got.requests)).not.toContain(app.token);
});

test('a session exported as OTLP JSON, masked; a Jaeger export imported into the History with its waterfall', async ({ launch, loupe, page }, testInfo) => {
  // --otlp-receive: no collector, the server's spans only joined in the page (and so in the export).
  const app = await launch(['--otlp-receive', '-e', `FIXTURE_SECRET=${SECRET}`, 'node', 'e2e/fixtures/otel-server.mjs']);
  await ready(loupe, app.url, 'forecast');
  await loupe.selectTool('forecast');
  await loupe.fillField('city', 'Porto');
  await loupe.runTool();
  await expect(loupe.result()).toContainText('Sunny in Porto');
  const history = new HistoryPage(loupe);
  await history.open();
  await expect(history.row('spans').filter({ hasText: 'fetch forecast' })).toBeVisible({ timeout: 15_000 });

  await history.button('Export…').click();
  const form = page.getByRole('region', { name: 'Export trace' });
  await expect(form.getByRole('checkbox', { name: 'Mask FIXTURE_SECRET' })).toBeChecked();
  const [file] = await Promise.all([page.waitForEvent('download'), form.getByRole('button', { name: 'Download OTLP JSON' }).click()]);
  expect(file.suggestedFilename()).toMatch(/\.otlp\.json$/);
  const text = await readFile(await file.path(), 'utf8');
  expect(text).not.toContain(SECRET);
  const spans = (JSON.parse(text) as { resourceSpans: { scopeSpans: { spans: { name: string; kind: number; spanId: string; parentSpanId?: string; attributes: { key: string; value: Record<string, unknown> }[] }[] }[] }[] }).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  const call = spans.find((s) => s.name === 'tools/call forecast' && s.kind === 3)!;
  expect(call.attributes).toContainEqual({ key: 'gen_ai.tool.name', value: { stringValue: 'forecast' } });
  expect(spans.find((s) => s.name === 'tools/call forecast' && s.kind === 2)?.parentSpanId).toBe(call.spanId);
  await history.button('Export…').click();

  const jaeger = testInfo.outputPath('jaeger.json');
  await writeFile(jaeger, JSON.stringify({ data: [{ traceID: 'abc123', processes: { p1: { serviceName: 'billing' } }, spans: [
    { traceID: 'abc123', spanID: '01', operationName: 'tools/call charge', startTime: 1_700_000_000_000_000, duration: 40_000, processID: 'p1', tags: [{ key: 'mcp.tool.name', value: 'charge' }, { key: 'span.kind', value: 'server' }] },
    { traceID: 'abc123', spanID: '02', operationName: 'card network', startTime: 1_700_000_000_010_000, duration: 25_000, processID: 'p1', references: [{ refType: 'CHILD_OF', spanID: '01' }], tags: [{ key: 'error', value: true }] },
  ] }] }));
  await page.getByLabel('Import trace').setInputFiles(jaeger);
  await history.row('spans').filter({ hasText: 'tools/call charge' }).click();
  const waterfall = new SpansPage(page);
  await expect(waterfall.span('card network')).toContainText('billing');
  await expect(waterfall.span('card network')).toContainText('+10 ms');
  await expect(waterfall.span('card network')).toContainText('error');
  await waterfall.open('tools/call charge');
  await expect(waterfall.region()).toContainText('gen_ai.tool.name');
});
