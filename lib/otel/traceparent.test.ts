import { describe, expect, it } from 'vitest';
import { contextOf, formatTraceparent, newRootContext, parseTraceparent, withTraceparent } from './traceparent.ts';

describe('traceparent in params._meta', () => {
  it('reads and writes W3C traceparent, refusing zero ids and version ff', () => {
    const ctx = newRootContext();
    expect(parseTraceparent(formatTraceparent(ctx))).toEqual(ctx);
    expect(parseTraceparent(`00-${'0'.repeat(32)}-${'1'.repeat(16)}-01`)).toBeUndefined();
    expect(parseTraceparent(`ff-${'1'.repeat(32)}-${'1'.repeat(16)}-01`)).toBeUndefined();
    expect(parseTraceparent('nonsense')).toBeUndefined();
  });

  it('adds traceparent and tracestate to a request, keeping its other _meta, never to a notification or a sender’s own context', () => {
    const ctx = { ...newRootContext(), traceState: 'loupe=1' };
    const stamped = withTraceparent({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 5 } } }, ctx);
    expect(stamped.stamped).toBe(true);
    expect((stamped.message as { params: { _meta: unknown } }).params._meta).toEqual({ progressToken: 5, traceparent: formatTraceparent(ctx), tracestate: 'loupe=1' });
    expect(contextOf(stamped.message)).toMatchObject({ traceId: ctx.traceId, spanId: ctx.spanId });
    expect(withTraceparent({ jsonrpc: '2.0', method: 'notifications/initialized' }, ctx).stamped).toBe(false);
    const own = { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { traceparent: formatTraceparent(newRootContext()) } } };
    expect(withTraceparent(own, ctx)).toEqual({ message: own, stamped: false });
    expect(withTraceparent({ jsonrpc: '2.0', id: 1, method: 'x', params: [1] }, ctx).stamped).toBe(false);
    expect((withTraceparent({ jsonrpc: '2.0', id: 1, method: 'ping' }, ctx).message as { params: unknown }).params).toEqual({ _meta: { traceparent: formatTraceparent(ctx), tracestate: 'loupe=1' } });
  });
});
