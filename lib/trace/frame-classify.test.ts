import { describe, expect, it } from 'vitest';
import { classifyMessage, classifyRaw } from './frame-classify.ts';

describe('classifyMessage', () => {
  it('recognises the four JSON-RPC shapes', () => {
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toEqual({ rpc: 'request', method: 'tools/list', id: 1 });
    expect(classifyMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({ rpc: 'notification', method: 'notifications/initialized' });
    expect(classifyMessage({ jsonrpc: '2.0', id: 'a', result: {} })).toEqual({ rpc: 'response', id: 'a' });
    expect(classifyMessage({ jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'nope' } })).toEqual({ rpc: 'error', id: 2 });
  });

  it('marks malformed frames invalid but keeps what it can tell', () => {
    expect(classifyMessage({ jsonrpc: '1.0', id: 1, method: 'ping' })).toEqual({ rpc: 'invalid', method: 'ping', id: 1 });
    expect(classifyMessage({ jsonrpc: '2.0', id: null, method: 'ping' })).toEqual({ rpc: 'invalid', method: 'ping' });
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, result: 1, error: {} })).toEqual({ rpc: 'invalid', id: 1 });
    expect(classifyMessage({ jsonrpc: '2.0', result: {} })).toEqual({ rpc: 'invalid' });
    // JSON-RPC 2.0 §5: an error about a request whose id could not be read carries "id": null.
    expect(classifyMessage({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'x' } })).toEqual({ rpc: 'error' });
    expect(classifyMessage({ jsonrpc: '2.0', id: null, result: {} })).toEqual({ rpc: 'invalid' });
    expect(classifyMessage([1, 2])).toEqual({ rpc: 'invalid' });
    expect(classifyMessage('text')).toEqual({ rpc: 'invalid' });
  });

  it('classifies raw text without throwing', () => {
    expect(classifyRaw('not json')).toEqual({ rpc: 'invalid' });
    expect(classifyRaw('{"jsonrpc":"2.0","method":"x"}')).toEqual({ rpc: 'notification', method: 'x' });
  });
});
