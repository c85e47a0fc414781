/**
 * A recording as Loupe writes it (the JSONL trace format: a header line, then one event per line),
 * made here frame by frame so that each case is visible; proxy/faces/cli/test.test.ts turns a real
 * `--record` recording into a collection and runs it against the same server.
 */
import { describe, expect, it } from 'vitest';
import { collectionFromRecording } from './from-recording.ts';

let seq = 0;
let ts = 1_700_000_000_000;
function frame(dir: 'out' | 'in', message: Record<string, unknown>, after = 5) {
  ts += after;
  const raw = JSON.stringify({ jsonrpc: '2.0', ...message });
  const rpc = message.method === undefined ? (message.error ? 'error' : 'response') : message.id === undefined ? 'notification' : 'request';
  return JSON.stringify({ session: 's1', seq: ++seq, ts, kind: 'frame', dir, raw, size: raw.length, rpc, ...(message.method ? { method: message.method } : {}), ...(message.id !== undefined ? { id: message.id } : {}) });
}
const header = JSON.stringify({ format: 'mcp-loupe-trace', version: 1, exportedAt: '2025-01-01T00:00:00.000Z', exportedBy: 'test', session: { id: 's1' } });

const weatherSchema = { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] };
function recording(): string {
  seq = 0;
  return [
    header,
    frame('out', { id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    frame('in', { id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } }),
    frame('out', { method: 'notifications/initialized' }),
    // The SDK's own listing (a plain numeric id): left out, but its outputSchema is used.
    frame('out', { id: 1, method: 'tools/list' }),
    frame('in', { id: 1, result: { tools: [{ name: 'weather', inputSchema: { type: 'object' }, outputSchema: weatherSchema }] } }),
    frame('out', { id: 'loupe-1', method: 'tools/list' }),
    frame('in', { id: 'loupe-1', result: { tools: [] } }),
    frame('out', { id: 'loupe-2', method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' }, _meta: { progressToken: 7 } } }),
    frame('in', { method: 'notifications/progress', params: { progressToken: 7, progress: 1 } }),
    frame('in', { id: 'loupe-2', result: { content: [{ type: 'text', text: 'Echo: hi' }] } }, 40),
    frame('out', { id: 'loupe-3', method: 'tools/call', params: { name: 'weather', arguments: { city: 'Oslo' } } }),
    frame('in', { id: 'loupe-3', result: { content: [{ type: 'text', text: '{"temperature":3}' }], structuredContent: { temperature: 3, at: '2025-01-01T10:00:00Z' } } }),
    frame('out', { id: 'loupe-4', method: 'tools/call', params: { name: 'echo', arguments: { message: 'again' } } }),
    frame('in', { id: 'loupe-4', error: { code: -32602, message: 'Invalid arguments' } }),
    frame('out', { id: 'loupe-5', method: 'ping' }),
    frame('in', { id: 'loupe-5', result: {} }),
    frame('out', { id: 'loupe-6', method: 'resources/read', params: { uri: 'note://1' } }),
    frame('in', { id: 'loupe-6', result: { contents: [{ uri: 'note://1', text: 'one' }] } }),
    frame('out', { id: 'loupe-7', method: 'prompts/get', params: { name: 'greet' } }),
  ].join('\n') + '\n';
}

describe('collectionFromRecording', () => {
  it('makes one call per answered request of the client, with assertions from the recorded answer', () => {
    const made = collectionFromRecording(recording(), 'from the recording');
    if (!made.ok) throw new Error(made.error);
    const { calls } = made.collection;
    expect(made.collection.name).toBe('from the recording');
    expect(calls.map((c) => [c.name, c.kind, c.target])).toEqual([
      ['echo', 'tool', 'echo'],
      ['weather', 'tool', 'weather'],
      ['echo 2', 'tool', 'echo'],
      ['read note://1', 'resource', 'note://1'],
    ]);
    expect(calls[0]).toEqual({ name: 'echo', kind: 'tool', target: 'echo', arguments: { message: 'hi' }, assert: [{ isError: false }, { path: '$.content[0].type', equals: 'text' }, { path: '$.content[0].text', equals: 'Echo: hi' }, { durationUnderMs: 1000 }] });
    // The tool's outputSchema came from the SDK's own listing; the clock reading is left out.
    expect(calls[1].assert).toEqual([{ isError: false }, { path: '$.content[0].type', equals: 'text' }, { path: '$.content[0].text', equals: '{"temperature":3}' }, { path: '$.structuredContent.temperature', equals: 3 }, { outputSchema: true }, { durationUnderMs: 1000 }]);
    expect(calls[2].assert).toEqual([{ isError: true }, { path: '$.code', equals: -32602 }, { durationUnderMs: 1000 }]);
  });

  it('says what it left out and why', () => {
    const made = collectionFromRecording(recording(), 'r');
    if (!made.ok) throw new Error(made.error);
    expect(made.notes).toEqual([
      'Left out one request, tools/list: sent by the SDK by itself, which the live session does again on its own.',
      'Left out one request, initialize: the handshake, which every run makes by itself.',
      'Left out one request, tools/list: a list (the tool lockfile, --lock, pins the surface).',
      'Left out one request, ping: a ping says nothing a test would check.',
      'Left out one request, prompts/get: no answer in the recording.',
    ]);
  });

  it('keeps list requests when asked', () => {
    const made = collectionFromRecording(recording(), 'r', { lists: true });
    expect(made.ok && made.collection.calls.map((c) => c.target)).toEqual(['tools/list', 'echo', 'weather', 'echo', 'note://1']);
  });

  it('refuses what is not a recording, or has no request to make a call of', () => {
    expect(collectionFromRecording('{"collections": []}', 'x')).toEqual({ ok: false, error: 'The first line is not a Loupe trace header (expected "format": "mcp-loupe-trace").' });
    seq = 0;
    const onlyPing = [header, frame('out', { id: 'loupe-1', method: 'ping' }), frame('in', { id: 'loupe-1', result: {} })].join('\n') + '\n';
    expect(collectionFromRecording(onlyPing, 'x')).toEqual({ ok: false, error: 'The recording has no request to make a call of. Left out one request, ping: a ping says nothing a test would check.' });
  });
});
