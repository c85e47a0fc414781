/**
 * Issue 24 on the proxy's side, without a browser: a tab (a stand-in socket) opens a tool's view;
 * the ext-apps SDK's own `App` plays the view and a few lines play the sandbox, both talking
 * through the tab as Loupe's page does (`app-frame` each way). The server is the real fixture
 * (e2e/fixtures/apps-server.mjs, built with the ext-apps server helpers). Checked: the handshake,
 * tool input and result, a view's tools/call through the session (its frames marked as the view's),
 * the refusal of a tool not visible to apps, what a view asks of the host, the sandbox server's
 * documents, their policy and their guards.
 */
import { request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '@modelcontextprotocol/ext-apps';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { AppViewState, FrameEvent } from '../../lib/wire/wire.ts';
import { Hub } from '../faces/web/hub.ts';
import { asWs, FakeSocket } from '../testing/socket.ts';

const FIXTURE = join(resolve(import.meta.dirname, '../..'), 'e2e', 'fixtures', 'apps-server.mjs');
const HOST_ORIGIN = 'http://127.0.0.1:45678';
const hubs: Hub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.shutdown()));
});

/** The view's end of the tab: what the proxy sends the view arrives here, what it sends goes to the tab. */
class TabTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  constructor(
    private readonly tab: FakeSocket,
    private readonly view: string,
  ) {}
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.tab.receive({ type: 'app-frame', view: this.view, text: JSON.stringify(message) });
  }
  deliver(text: string): void {
    this.onmessage?.(JSON.parse(text) as JSONRPCMessage);
  }
  async close(): Promise<void> {}
}

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function opened(tool: string, args: Record<string, unknown> = {}) {
  const hub = new Hub();
  hubs.push(hub);
  const tab = new FakeSocket();
  hub.attach(asWs(tab), true);
  const session = hub.createSession({ kind: 'stdio', command: process.execPath, args: [FIXTURE], env: {} });
  await hub.start(session);
  const call = await session.request('call-1', 'tools/call', { name: tool, arguments: args });
  tab.receive({ type: 'app-open', requestId: 'open-1', session: session.id, tool, arguments: args, result: call.ok ? call.result : undefined, hostOrigin: HOST_ORIGIN });
  const reply = await tab.next('app-opened', 'open-1');
  return { hub, tab, session, reply };
}

/** Plays the sandbox: ready, then the view's messages both ways once the host sent the resource. */
async function mount(tab: FakeSocket, state: AppViewState, setUp?: (app: App) => void): Promise<{ app: App; transport: TabTransport }> {
  const view = state.view;
  let delivered = 0;
  const transport = new TabTransport(tab, view);
  tab.receive({ type: 'app-frame', view, text: JSON.stringify({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }) });
  await until(() => tab.of('app-frame').find((m) => m.view === view && m.text.includes('sandbox-resource-ready')), 'sandbox-resource-ready');
  const pump = setInterval(() => {
    const frames = tab.of('app-frame').filter((m) => m.view === view && !m.text.includes('sandbox-resource-ready'));
    while (delivered < frames.length) transport.deliver(frames[delivered++].text);
  }, 5);
  const app = new App({ name: 'test-view', version: '1.0.0' }, { availableDisplayModes: ['inline', 'fullscreen'] }, { autoResize: false });
  setUp?.(app);
  await app.connect(transport);
  tab.once('close', () => clearInterval(pump));
  return { app, transport };
}

const lastState = (tab: FakeSocket) => tab.of('app-state').at(-1)?.state;
const viewFrames = (frames: FrameEvent[], view: string) => frames.filter((f) => f.view === view);

describe('an MCP Apps view, hosted by the proxy', () => {
  it('opens in the sandbox: input and result after initialize, a tools/call through the session, a refusal', async () => {
    const { tab, session, reply } = await opened('counter', {});
    expect(reply.error).toBeUndefined();
    const state = reply.state!;
    expect(state).toMatchObject({ tool: 'counter', uri: 'ui://apps/counter', status: 'loading' });
    expect(new URL(state.sandboxUrl).origin).not.toBe(HOST_ORIGIN);

    const inputs: unknown[] = [];
    const results: unknown[] = [];
    const { app } = await mount(tab, state, (view) => {
      view.ontoolinput = (p) => inputs.push(p);
      view.ontoolresult = (p) => results.push(p);
    });
    await until(() => (lastState(tab)?.status === 'initialized' ? true : undefined), 'initialized');
    await until(() => (results.length > 0 ? true : undefined), 'the tool result');
    expect(inputs).toEqual([{ arguments: {} }]);
    expect(JSON.stringify(results[0])).toContain('Count is');

    const added = await app.callServerTool({ name: 'counter_add', arguments: { by: 2 } });
    expect(JSON.stringify(added.content)).toContain('2');
    await expect(app.callServerTool({ name: 'secret_model_tool', arguments: {} })).rejects.toThrow(/not visible to apps/);
    expect(lastState(tab)?.asks.map((a) => a.kind)).toContain('refused');

    const frames = session.trace.all().filter((e): e is FrameEvent => e.kind === 'frame');
    const mine = viewFrames(frames, state.view);
    expect(mine.map((f) => `${f.dir} ${f.method ?? f.rpc}`)).toEqual(expect.arrayContaining(['in ui/notifications/sandbox-proxy-ready', 'out ui/notifications/sandbox-resource-ready', 'in ui/initialize', 'in ui/notifications/initialized', 'out ui/notifications/tool-input', 'in tools/call']));
    // The view's call reached the server once, marked as the view's; the refused one never did.
    const toServer = frames.filter((f) => f.view === undefined && f.dir === 'out' && f.method === 'tools/call' && f.byView === state.view);
    expect(toServer).toHaveLength(1);
    expect(toServer[0].raw).toContain('counter_add');
    expect(frames.some((f) => f.view === undefined && f.raw.includes('secret_model_tool') && f.dir === 'out' && f.method === 'tools/call')).toBe(false);
  }, 90_000);

  it('lists what the view asks of the host, and switches display mode only to one it declared', async () => {
    const { tab, reply } = await opened('messenger');
    const { app } = await mount(tab, reply.state!);
    await until(() => (lastState(tab)?.status === 'initialized' ? true : undefined), 'initialized');
    // A message waits for the user: approved, the view hears it was sent; denied, that it was not.
    const sent = app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'Hello from the view' }] });
    const ask = await until(() => lastState(tab)?.asks.find((a) => a.kind === 'message' && a.answer === 'waiting'), 'the message to approve');
    expect(ask.message).toBe('Hello from the view');
    tab.receive({ type: 'app-answer', view: reply.state!.view, ask: ask.id, approve: true });
    expect(await sent).toEqual({});
    const refused = app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'Again' }] });
    const second = await until(() => lastState(tab)?.asks.find((a) => a.kind === 'message' && a.answer === 'waiting'), 'the second message');
    tab.receive({ type: 'app-answer', view: reply.state!.view, ask: second.id, approve: false });
    await expect(refused).rejects.toThrow(/denied/);
    await app.updateModelContext({ content: [{ type: 'text', text: 'The user picked blue' }] });
    await app.openLink({ url: 'https://example.com/docs' });
    await expect(app.openLink({ url: 'javascript:alert(1)' })).rejects.toThrow(/http and https/);
    expect(await app.requestDisplayMode({ mode: 'fullscreen' })).toEqual({ mode: 'fullscreen' });
    expect(await app.requestDisplayMode({ mode: 'pip' })).toEqual({ mode: 'fullscreen' });
    const state = lastState(tab)!;
    expect(state.displayMode).toBe('fullscreen');
    expect(state.modelContext).toMatchObject({ content: [{ text: 'The user picked blue' }] });
    expect(state.asks.map((a) => a.kind)).toEqual(expect.arrayContaining(['message', 'model-context', 'open-link', 'display-mode']));
    expect(state.asks.find((a) => a.kind === 'open-link')?.url).toBe('https://example.com/docs');

    // Torn down: the view hears ui/resource-teardown and its answer still reaches the host.
    const { session } = await (async () => ({ session: [...hubs.at(-1)!.sessionList()][0] }))();
    tab.receive({ type: 'app-close', view: state.view });
    await until(() => (lastState(tab)?.status === 'closed' ? true : undefined), 'closed');
    const teardown = session.trace.all().filter((e): e is FrameEvent => e.kind === 'frame' && e.view === state.view && e.method === 'ui/resource-teardown');
    expect(teardown).toHaveLength(1);
    const answered = session.trace.all().some((e) => e.kind === 'frame' && e.view === state.view && e.dir === 'in' && e.id === teardown[0].id && e.method === undefined);
    expect(answered, 'the view answered the teardown before it went').toBe(true);
    expect(tab.of('app-problem')).toEqual([]);
    // Asked of a view no longer open: refused, naming the view.
    tab.receive({ type: 'app-replay', view: state.view, input: {} });
    expect((await until(() => tab.of('app-problem').at(-1), 'the refusal')).view).toBe(state.view);
  }, 90_000);

  it('a download (ui/download-file, draft) waits for the user; approved, a link is read from the server as the view’s and the files go to the tab; denied, the view hears isError', async () => {
    const { tab, session, reply } = await opened('messenger');
    const view = reply.state!.view;
    const { app } = await mount(tab, reply.state!);
    await until(() => (lastState(tab)?.status === 'initialized' ? true : undefined), 'initialized');
    expect(app.getHostCapabilities()?.downloadFile).toEqual({});
    const contents = [
      { type: 'resource' as const, resource: { uri: 'file:///x/report.csv', mimeType: 'text/csv', text: 'a,b\n' } },
      { type: 'resource_link' as const, uri: 'fixture://apps/counter-data', name: 'counter.txt', mimeType: 'text/plain' },
    ];
    const reads = () => session.trace.all().filter((e): e is FrameEvent => e.kind === 'frame' && e.view === undefined && e.dir === 'out' && e.method === 'resources/read' && e.byView === view && e.raw.includes('counter-data'));
    const saved = app.downloadFile({ contents });
    const ask = await until(() => lastState(tab)?.asks.find((a) => a.kind === 'download' && a.answer === 'waiting'), 'the download to approve');
    expect(ask.files?.map((f) => `${f.name} ${f.embedded}`)).toEqual(['report.csv true', 'counter.txt false']);
    // Nothing is read from the server before the user agrees.
    expect(reads()).toEqual([]);
    tab.receive({ type: 'app-answer', view, ask: ask.id!, approve: true });
    expect((await saved).isError).toBeUndefined();
    const files = (await until(() => tab.of('app-download').at(-1), 'the files')).files;
    expect(files[0]).toEqual({ name: 'report.csv', mimeType: 'text/csv', text: 'a,b\n' });
    expect(files[1]).toMatchObject({ name: 'counter.txt', mimeType: 'text/plain', text: expect.stringMatching(/^count: \d+$/) });
    expect(reads()).toHaveLength(1);

    const denied = app.downloadFile({ contents });
    const second = await until(() => lastState(tab)?.asks.find((a) => a.kind === 'download' && a.answer === 'waiting'), 'the second download');
    tab.receive({ type: 'app-answer', view, ask: second.id!, approve: false });
    expect((await denied).isError).toBe(true);
    expect(tab.of('app-download')).toHaveLength(1);

    // A link the server cannot read: approved, the view hears isError and the ask says why.
    const broken = app.downloadFile({ contents: [{ type: 'resource_link', uri: 'fixture://apps/none', name: 'none.txt' }] });
    const third = await until(() => lastState(tab)?.asks.find((a) => a.kind === 'download' && a.answer === 'waiting'), 'the third download');
    tab.receive({ type: 'app-answer', view, ask: third.id!, approve: true });
    expect((await broken).isError).toBe(true);
    expect(lastState(tab)?.asks.find((a) => a.id === third.id)?.problem).toMatch(/^Not saved: /);
  }, 90_000);

  it('says why a view cannot be opened: no view, a missing resource, the wrong MIME type', async () => {
    for (const [tool, words] of [['echo', /names no view/], ['broken-link', /Could not read the view ui:\/\/apps\/missing/], ['wrong-mime', /text\/html;profile=mcp-app/]] as const) {
      const { reply } = await opened(tool, tool === 'echo' ? { message: 'hi' } : {});
      expect(reply.state).toBeUndefined();
      expect(reply.error?.message).toMatch(words);
    }
  }, 120_000);

  it('serves the sandbox and the view only into frames, with the view’s token, on a loopback Host, under the built policy', async () => {
    const { tab, reply } = await opened('csp-breaker');
    const state = reply.state!;
    const sandbox = new URL(state.sandboxUrl);
    const view = new URL(`/view/${state.view}?t=${sandbox.searchParams.get('t')}`, sandbox.origin);
    const get = (url: URL, headers: Record<string, string>, method = 'GET', body?: string) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((done, fail) => {
        const req = httpRequest(url, { method, headers }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString('utf8')));
          res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        });
        req.on('error', fail);
        req.end(body);
      });
    const frame = { 'Sec-Fetch-Dest': 'iframe' };
    const page = await get(sandbox, frame);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain(`frame-ancestors ${HOST_ORIGIN}`);
    expect(page.body).toContain("'ui/notifications/sandbox-'");
    const doc = await get(view, frame);
    expect(doc.status).toBe(200);
    expect(doc.headers['content-security-policy']).toBe(`${state.csp}; frame-ancestors ${sandbox.origin} ${HOST_ORIGIN}; report-uri /csp/${state.view}?t=${sandbox.searchParams.get('t')}`);
    expect(state.csp).toContain('connect-src \'self\' http://127.0.0.1:9');
    expect(state.csp).not.toMatch(/blocked\.example|images\.example/);

    expect((await get(sandbox, { 'Sec-Fetch-Dest': 'document' })).status).toBe(403);
    expect((await get(new URL(`/sandbox/${state.view}?t=wrong`, sandbox.origin), frame)).status).toBe(404);
    expect((await get(sandbox, { ...frame, Host: `evil.example:${sandbox.port}` })).status).toBe(403);
    expect((await get(sandbox, { ...frame, Origin: 'http://localhost:3000' })).status).toBe(403);

    const report = JSON.stringify({ 'csp-report': { 'effective-directive': 'connect-src', 'blocked-uri': 'https://blocked.example/steal' } });
    const reportUrl = new URL(`/csp/${state.view}?t=${sandbox.searchParams.get('t')}`, sandbox.origin);
    expect((await get(reportUrl, { 'Content-Type': 'application/csp-report' }, 'POST', report)).status).toBe(204);
    const blocked = await until(() => lastState(tab)?.asks.find((a) => a.kind === 'csp'), 'the CSP report');
    expect(blocked.text).toBe('Blocked by the view’s Content-Security-Policy (connect-src): https://blocked.example/steal');

    tab.receive({ type: 'app-close', view: state.view });
    await until(() => (lastState(tab)?.status === 'closed' ? true : undefined), 'closed');
    expect((await get(sandbox, frame)).status).toBe(404);
  }, 90_000);

  it('a view’s tools/call meets the session’s interception rules: a permission gate answers it, a breakpoint holds it', async () => {
    const { tab, reply } = await opened('counter', {});
    const { app } = await mount(tab, reply.state!);
    await until(() => (lastState(tab)?.status === 'initialized' ? true : undefined), 'initialized');
    tab.receive({ type: 'set-rules', rules: [{ id: 'gate', match: { method: 'tools/call', name: 'counter_add' }, action: { type: 'deny', message: 'Not from a view today.' } }] });
    await until(() => tab.of('rules').at(-1)?.rules.length === 1 || undefined, 'the rule in force');
    const gated = await app.callServerTool({ name: 'counter_add', arguments: { by: 1 } });
    expect(gated.isError).toBe(true);
    expect(JSON.stringify(gated.content)).toContain('Not from a view today.');

    tab.receive({ type: 'set-rules', rules: [{ id: 'bp', match: { direction: 'to-server', method: 'tools/call', name: 'counter_add' }, action: { type: 'pause' } }] });
    await until(() => tab.of('rules').at(-1)?.rules[0]?.id === 'bp' || undefined, 'the breakpoint in force');
    const held = app.callServerTool({ name: 'counter_add', arguments: { by: 5 } });
    const hold = await until(() => tab.of('hold').at(-1), 'the held call');
    expect(hold.frame.raw).toContain('"by":5');
    tab.receive({ type: 'release-hold', holdId: hold.frame.holdId, decision: { action: 'forward' } });
    expect(JSON.stringify((await held).content)).toContain('5');
  }, 90_000);
});

