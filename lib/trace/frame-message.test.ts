import { describe, expect, it, vi } from 'vitest';
import { frameIsJson, frameMessage, frameParamsObject } from './frame-message.ts';

describe('frameMessage', () => {
  it('parses a frame once, however many views ask', () => {
    const frame = { raw: '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"x"}}' };
    const parse = vi.spyOn(JSON, 'parse');
    const first = frameMessage(frame);
    expect(frameMessage(frame)).toBe(first);
    expect(frameParamsObject(frame)).toEqual({ data: 'x' });
    expect(frameIsJson(frame)).toBe(true);
    expect(parse).toHaveBeenCalledTimes(1);
    parse.mockRestore();
  });

  it('remembers that text is not JSON, and tells null apart from it', () => {
    const bad = { raw: 'not json' };
    expect(frameMessage(bad)).toBeUndefined();
    expect(frameIsJson(bad)).toBe(false);
    expect(frameIsJson({ raw: 'null' })).toBe(true);
    expect(frameParamsObject({ raw: '{"params":[1]}' })).toBeUndefined();
  });
});
