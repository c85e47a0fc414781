/**
 * Loupe's protocol probe (issue 12, proxy/session/era-probe.ts): the verdict for every kind of answer to
 * `server/discover`, in the exact words the page's Protocol region and the trace show, and
 * `sendProbe` on a transport that answers as a real one does (an answer among other traffic, an
 * error, silence, a close, a send that fails), giving the transport's handlers back afterwards.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { describeAnswer, judge, PROBE_ID, sendProbe, type ProbeAnswer } from './era-probe.ts';

const PROBE = 'server/discover asking for 2026-07-28';
const DISCOVER = { supportedVersions: ['2025-11-25', '2026-07-28'], capabilities: { tools: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'srv', version: '1' } } };

describe('describeAnswer', () => {
  it('says what came back in a few words', () => {
    expect(describeAnswer({ kind: 'result', result: DISCOVER })).toBe('result: supportedVersions ["2025-11-25","2026-07-28"]');
    // Only strings count as versions; a result without the list says so with an empty one.
    expect(describeAnswer({ kind: 'result', result: { supportedVersions: ['2026-07-28', 7, null] } })).toBe('result: supportedVersions ["2026-07-28"]');
    expect(describeAnswer({ kind: 'result', result: { supportedVersions: '2026-07-28' } })).toBe('result: supportedVersions []');
    expect(describeAnswer({ kind: 'error', code: -32601, message: 'Method not found' })).toBe('error -32601: Method not found');
    expect(describeAnswer({ kind: 'timeout', ms: 5000 })).toBe('no answer within 5 s');
    expect(describeAnswer({ kind: 'timeout', ms: 1234 })).toBe('no answer within 1.2 s');
    expect(describeAnswer({ kind: 'closed' })).toBe('the server closed the connection');
    expect(describeAnswer({ kind: 'closed', detail: 'exit code 1' })).toBe('the server closed the connection (exit code 1)');
    expect(describeAnswer({ kind: 'send-failed', detail: 'fetch failed' })).toBe('the request could not be sent (fetch failed)');
  });
});

describe('judge', () => {
  it('speaks 2026-07-28 to a server whose discover result lists a 2026 version, and keeps the result', () => {
    const verdict = judge('auto', { kind: 'result', result: DISCOVER }, 'stdio');
    expect(verdict).toEqual({
      mode: 'auto',
      era: 'modern',
      probe: PROBE,
      answer: 'result: supportedVersions ["2025-11-25","2026-07-28"]',
      reason: 'The server answered server/discover and supports 2025-11-25, 2026-07-28: Loupe speaks 2026-07-28 (stateless).',
      discover: DISCOVER,
    });
    expect(judge('2026-07-28', { kind: 'result', result: DISCOVER }, 'http')).toMatchObject({ mode: '2026-07-28', era: 'modern' });
  });

  it('opens a 2025 session when the discover result lists no 2026 version', () => {
    const verdict = judge('auto', { kind: 'result', result: { supportedVersions: ['2025-06-18', '2025-11-25'] } }, 'http');
    expect(verdict).toEqual({
      mode: 'auto',
      era: 'legacy',
      probe: PROBE,
      answer: 'result: supportedVersions ["2025-06-18","2025-11-25"]',
      reason: 'The server answered server/discover but lists no 2026 version (2025-06-18, 2025-11-25): Loupe opens a 2025-11-25 session.',
    });
    expect(verdict).not.toHaveProperty('discover');
    expect(judge('auto', { kind: 'result', result: {} }, 'stdio').reason).toBe('The server answered server/discover but lists no 2026 version (none): Loupe opens a 2025-11-25 session.');
  });

  it('reads -32022 by the versions the server says it supports', () => {
    const newer = judge('auto', { kind: 'result', result: { supportedVersions: ['2027-01-01'] } }, 'http');
    expect(newer).toMatchObject({ era: 'legacy' });
    expect(newer.reason).toBe('The server answered server/discover with only 2027-01-01, not 2026-07-28, which Loupe speaks: Loupe opens a 2025-11-25 session.');

    // Refused although listed: the request was wrong in another way; no 2026 session is opened on it.
    const odd = judge('auto', { kind: 'error', code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2026-07-28' } }, 'http');
    expect(odd).toMatchObject({ era: 'legacy', answer: 'error -32022: Unsupported protocol version' });
    expect(odd.reason).toBe('The server refused 2026-07-28 although it lists it (2026-07-28): it wants something else of the request; Loupe tries a 2025-11-25 session.');
    expect(odd).not.toHaveProperty('unreachable');

    const legacy = judge('auto', { kind: 'error', code: -32022, message: 'Unsupported protocol version', data: { supported: ['2025-11-25', '2025-06-18'] } }, 'stdio');
    expect(legacy).toMatchObject({ era: 'legacy', answer: 'error -32022: Unsupported protocol version' });
    expect(legacy.reason).toBe('The server refused 2026-07-28 and supports 2025-11-25, 2025-06-18: Loupe opens a 2025-11-25 session.');

    const unnamed = judge('auto', { kind: 'error', code: -32022, message: 'Unsupported protocol version' }, 'stdio');
    expect(unnamed.reason).toBe('The server refused 2026-07-28 and supports no version it named: Loupe opens a 2025-11-25 session.');
  });

  it('takes -32601 and any other error as a 2025 server', () => {
    const notFound = judge('auto', { kind: 'error', code: -32601, message: 'Method not found' }, 'stdio');
    expect(notFound).toEqual({
      mode: 'auto',
      era: 'legacy',
      probe: PROBE,
      answer: 'error -32601: Method not found',
      reason: 'The server does not know server/discover, as servers that speak only 2025 do: Loupe opens a 2025-11-25 session with initialize.',
    });
    const other = judge('auto', { kind: 'error', code: -32600, message: 'Server not initialized' }, 'http');
    expect(other).toMatchObject({ era: 'legacy', answer: 'error -32600: Server not initialized' });
    expect(other.reason).toBe('The server answered server/discover with error -32600, as servers that speak only 2025 do: Loupe opens a 2025-11-25 session with initialize.');
    expect(other).not.toHaveProperty('unreachable');
  });

  it('reads silence on stdio as a 2025 server, and on HTTP as not knowing', () => {
    const quiet = judge('auto', { kind: 'timeout', ms: 5000 }, 'stdio');
    expect(quiet).toMatchObject({ era: 'legacy', answer: 'no answer within 5 s' });
    expect(quiet.reason).toBe('The server did not answer server/discover (no answer within 5 s); servers that speak only 2025 may ignore requests before initialize, so Loupe opens a 2025-11-25 session.');
    expect(quiet).not.toHaveProperty('unreachable');

    const down = judge('auto', { kind: 'timeout', ms: 5000 }, 'http');
    expect(down).toMatchObject({ era: 'legacy', unreachable: true, answer: 'no answer within 5 s' });
    expect(down.reason).toBe('Loupe could not tell which protocol the server speaks: no answer within 5 s. It tries a 2025-11-25 session.');
  });

  it('reads a stdio server that exits on the probe as a 2025 server, and a closed HTTP connection as not knowing', () => {
    const exited = judge('auto', { kind: 'closed' }, 'stdio');
    expect(exited).toMatchObject({ era: 'legacy', answer: 'the server closed the connection' });
    expect(exited.reason).toBe('The server exited when asked server/discover, as some 2025-only servers do before initialize: Loupe started it again and opened a 2025-11-25 session.');
    expect(exited).not.toHaveProperty('unreachable');

    const closed = judge('auto', { kind: 'closed', detail: 'socket hang up' }, 'http');
    expect(closed).toMatchObject({ era: 'legacy', unreachable: true });
    expect(closed.reason).toBe('Loupe could not tell which protocol the server speaks: the server closed the connection (socket hang up). It tries a 2025-11-25 session.');
  });

  it('says it could not tell when the probe could not be sent', () => {
    for (const transport of ['stdio', 'http'] as const) {
      const verdict = judge('auto', { kind: 'send-failed', detail: 'fetch failed' }, transport);
      expect(verdict).toEqual({
        mode: 'auto',
        era: 'legacy',
        unreachable: true,
        probe: PROBE,
        answer: 'the request could not be sent (fetch failed)',
        reason: 'Loupe could not tell which protocol the server speaks: the request could not be sent (fetch failed). It tries a 2025-11-25 session.',
      });
    }
  });
  it('does not promise a 2025 session under Protocol 2026-07-28', () => {
    const answers: ProbeAnswer[] = [
      { kind: 'result', result: { supportedVersions: ['2025-11-25'] } },
      { kind: 'error', code: -32022, message: 'x', data: { supported: ['2025-11-25'] } },
      { kind: 'error', code: -32601, message: 'Method not found' },
      { kind: 'timeout', ms: 5000 },
      { kind: 'closed' },
      { kind: 'send-failed', detail: 'fetch failed' },
    ];
    for (const answer of answers) {
      const verdict = judge('2026-07-28', answer, 'stdio');
      expect(verdict.era).toBe('legacy');
      expect(verdict.reason).not.toMatch(/(opens|opened|tries) a 2025-11-25 session/);
      expect(verdict.reason).toMatch(/Protocol is 2026-07-28, so Loupe opens no 2025-11-25 session\.$/);
    }
    expect(judge('2026-07-28', { kind: 'error', code: -32601, message: 'Method not found' }, 'stdio').reason).toBe(
      'The server does not know server/discover, as servers that speak only 2025 do; Protocol is 2026-07-28, so Loupe opens no 2025-11-25 session.',
    );
  });

  it('keeps the mode it was asked in, whatever it concludes', () => {
    const answers: ProbeAnswer[] = [{ kind: 'result', result: DISCOVER }, { kind: 'error', code: -32601, message: 'x' }, { kind: 'timeout', ms: 10 }];
    for (const mode of ['auto', '2026-07-28', '2025-11-25'] as const) for (const answer of answers) expect(judge(mode, answer, 'stdio').mode).toBe(mode);
  });
});

/** A transport whose far end the test plays: `reply` decides what the server does with each message. */
function fakeTransport(reply: (message: JSONRPCMessage, t: Transport) => void | Promise<void>) {
  const sent: JSONRPCMessage[] = [];
  const transport: Transport = {
    start: async () => undefined,
    close: async () => transport.onclose?.(),
    send: async (message) => {
      sent.push(message);
      await reply(message, transport);
    },
  };
  return { transport, sent };
}

const PARTS = { clientInfo: { name: 'mcp-loupe', version: '0.0.0' }, capabilities: { elicitation: {} } };

describe('sendProbe', () => {
  it('sends server/discover with the 2026 envelope and waits for the answer to its own id', async () => {
    const { transport, sent } = fakeTransport((message, t) => {
      const id = (message as { id: unknown }).id;
      // Other traffic first (a notification, an answer to something else): not the probe's answer.
      setTimeout(() => {
        t.onmessage?.({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hello' } });
        t.onmessage?.({ jsonrpc: '2.0', id: 'other', result: { supportedVersions: ['2025-11-25'] } });
        t.onmessage?.({ jsonrpc: '2.0', id: id as string, result: DISCOVER });
      }, 5);
    });
    const before = () => undefined;
    transport.onmessage = before;
    const answer = await sendProbe(transport, PARTS, 2000);
    expect(answer).toEqual({ kind: 'result', result: DISCOVER });
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        id: PROBE_ID,
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': PARTS.clientInfo, 'io.modelcontextprotocol/clientCapabilities': PARTS.capabilities } },
      },
    ]);
    // The borrowed handler is given back.
    expect(transport.onmessage).toBe(before);
  });

  it('passes an error answer on with its code, message and data', async () => {
    const { transport } = fakeTransport((message, t) => {
      t.onmessage?.({ jsonrpc: '2.0', id: (message as { id: string }).id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2025-11-25'] } } });
    });
    expect(await sendProbe(transport, PARTS, 2000)).toEqual({ kind: 'error', code: -32022, message: 'Unsupported protocol version', data: { supported: ['2025-11-25'] } });
  });

  it('gives up after the timeout, with the time it waited', async () => {
    const { transport } = fakeTransport(() => undefined);
    const started = Date.now();
    expect(await sendProbe(transport, PARTS, 150)).toEqual({ kind: 'timeout', ms: 150 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('notices a close, and gives the close handler back', async () => {
    const { transport } = fakeTransport((_m, t) => void setTimeout(() => void t.close(), 5));
    let closedLater = 0;
    transport.onclose = () => void closedLater++;
    expect(await sendProbe(transport, PARTS, 2000)).toEqual({ kind: 'closed' });
    expect(closedLater).toBe(0);
    await transport.close();
    expect(closedLater).toBe(1);
  });

  it('says why a send failed', async () => {
    const { transport } = fakeTransport(() => {
      throw new Error('fetch failed');
    });
    expect(await sendProbe(transport, PARTS, 2000)).toEqual({ kind: 'send-failed', detail: 'fetch failed' });
  });
});
