import { describe, expect, it } from 'vitest';
import { PortFixture } from '../_wire/port-fixture.ts';
import { TraceActions } from './trace-actions.ts';

const http = { kind: 'http' as const, url: 'http://127.0.0.1:1/mcp', transport: 'auto' as const, headers: {} };
const call = JSON.stringify({ jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'echo', arguments: {} } });

describe('raw composer HTTP headers (issue 12)', () => {
  it('sends the typed headers with that one message on an HTTP session', async () => {
    const app = new PortFixture();
    app.connect({ config: http });
    const actions = new TraceActions(app.port);
    actions.setDraft(call);
    actions.setHeaders('Mcp-Method: tools/list\n\nMcp-Session-Id: stray');
    const sent = actions.sendDraft();
    expect(app.raws).toEqual([{ message: JSON.parse(call), origin: 'composer', headers: { 'Mcp-Method': 'tools/list', 'Mcp-Session-Id': 'stray' } }]);
    app.answer('tools/call', { content: [] });
    await sent;
    expect(actions.getSnapshot().composer.sent?.headers).toEqual({ 'Mcp-Method': 'tools/list', 'Mcp-Session-Id': 'stray' });
  });

  it('sends none on a stdio session, whatever is typed, and none when the field is empty', () => {
    const stdio = new PortFixture();
    stdio.connect();
    const onStdio = new TraceActions(stdio.port);
    onStdio.setDraft(call);
    onStdio.setHeaders('Mcp-Method: tools/list');
    void onStdio.sendDraft();
    expect(stdio.raws[0].headers).toBeUndefined();

    const empty = new PortFixture();
    empty.connect({ config: http });
    const onHttp = new TraceActions(empty.port);
    onHttp.setDraft(call);
    void onHttp.sendDraft();
    expect(empty.raws[0].headers).toBeUndefined();
  });

  it('says which line is wrong and sends nothing', async () => {
    const app = new PortFixture();
    app.connect({ config: http });
    const actions = new TraceActions(app.port);
    actions.setDraft(call);
    actions.setHeaders('Mcp-Method: tools/list\nnot a header');
    await actions.sendDraft();
    expect(app.raws).toEqual([]);
    expect(actions.getSnapshot().composer.problem).toBe('HTTP headers line 2: expected "Name: value"');
  });

  it('keeps replays as they were: no headers', () => {
    const app = new PortFixture();
    app.connect({ config: http });
    const actions = new TraceActions(app.port);
    actions.setHeaders('Mcp-Method: tools/list');
    const row = { seq: 100, event: { session: 's', seq: 100, ts: 0, kind: 'frame', size: call.length, dir: 'out', raw: call, rpc: 'request' } } as unknown as Parameters<TraceActions['replay']>[0];
    void actions.replay(row);
    expect(app.raws[0]).toMatchObject({ origin: 'replay' });
    expect(app.raws[0].headers).toBeUndefined();
  });
});
