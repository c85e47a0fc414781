import { describe, expect, it } from 'vitest';
import type { ResponseMessage, TraceEvent } from '../../lib/wire/wire.ts';
import { frameMessage } from '../../lib/trace/frame-message.ts';
import { FrameJoin } from './frame-join.ts';

const frame = (session: string, seq: number, raw: string, rpc: 'response' | 'notification' = 'response'): TraceEvent => ({ kind: 'frame', session, seq, ts: seq, dir: 'in', raw, size: raw.length, rpc, id: 1 }) as TraceEvent;
const referring = (session: string, frameSeq: number): ResponseMessage => ({ type: 'response', id: 'r', session, ok: true, durationMs: 2, frameSeq });

describe('FrameJoin', () => {
  it('puts the result of the frame an envelope refers to into it, sharing the frame’s one parse', () => {
    const join = new FrameJoin();
    const event = frame('s1', 7, '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}');
    join.note([frame('s2', 7, '{"jsonrpc":"2.0","id":1,"result":"other session"}'), event]);
    const joined = join.join(referring('s1', 7));
    expect(joined.ok && joined.result).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    // The History's view of the frame finds the same object: parsed once in the page.
    expect(joined.ok && joined.result).toBe((frameMessage(event as Extract<TraceEvent, { kind: 'frame' }>) as { result: unknown }).result);
  });

  it('an envelope whose frame never came becomes a failure that says where the answer is', () => {
    const join = new FrameJoin();
    join.note([frame('s1', 3, '{"jsonrpc":"2.0","method":"notifications/message"}', 'notification')]);
    const joined = join.join(referring('s1', 3));
    expect(joined.ok).toBe(false);
    expect(!joined.ok && joined.error.message).toMatch(/frame 3 .* in History/);
  });

  it('leaves envelopes with their result inline as they are', () => {
    const join = new FrameJoin();
    const inline: ResponseMessage = { type: 'response', id: 'r', session: 's1', ok: true, durationMs: 1, result: 42 };
    expect(join.join(inline)).toBe(inline);
  });
});
