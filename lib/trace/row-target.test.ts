import { describe, expect, it } from 'vitest';
import { TraceIndex } from './row-index.ts';
import { rowTarget } from './row-target.ts';
import type { FrameEvent } from '../wire/wire.ts';

let seq = 0;
function frame(dir: FrameEvent['dir'], message: Record<string, unknown>): FrameEvent {
  seq += 1;
  const raw = JSON.stringify(message);
  const method = typeof message.method === 'string' ? message.method : undefined;
  const id = typeof message.id === 'number' ? message.id : undefined;
  const rpc: FrameEvent['rpc'] = method !== undefined ? (id !== undefined ? 'request' : 'notification') : 'error' in message ? 'error' : 'response';
  return { session: 's1', seq, ts: seq * 10, kind: 'frame', dir, raw, size: raw.length, rpc, method, id };
}

describe('rowTarget', () => {
  it('names the tool, prompt and URI of a call, and a response answers for its request', () => {
    const index = TraceIndex.from([
      frame('out', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } }),
      frame('in', { jsonrpc: '2.0', id: 1, result: { content: [] } }),
      frame('out', { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'simple-prompt' } }),
      frame('out', { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'demo://resource/static/document/architecture.md' } }),
      frame('in', { jsonrpc: '2.0', id: 3, error: { code: -32002, message: 'not found' } }),
      frame('in', { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'demo://x' } }),
      frame('out', { jsonrpc: '2.0', id: 4, method: 'tools/list' }),
    ]);
    const targets = index.rows.map((row) => rowTarget(row));
    expect(targets).toEqual(['echo', 'echo', 'simple-prompt', 'demo://resource/static/document/architecture.md', 'demo://resource/static/document/architecture.md', 'demo://x', undefined]);
  });

  it('says nothing for a missing or odd name, and cuts a long one', () => {
    const index = TraceIndex.from([
      frame('out', { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 42 } }),
      frame('out', { jsonrpc: '2.0', id: 6, method: 'tools/call' }),
      frame('out', { jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: `demo://${'x'.repeat(300)}` } }),
    ]);
    const [odd, none, long] = index.rows.map((row) => rowTarget(row));
    expect(odd).toBeUndefined();
    expect(none).toBeUndefined();
    expect(long).toHaveLength(120);
    expect(long?.endsWith('…')).toBe(true);
  });
});
