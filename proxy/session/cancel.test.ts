import { describe, expect, it } from 'vitest';
import { Cancel } from './cancel.ts';

describe('Cancel', () => {
  it('calls each listener once, with the reason, and only the first abort counts', () => {
    const cancel = new Cancel();
    const heard: unknown[] = [];
    cancel.onAbort((reason) => heard.push(['a', reason]));
    cancel.onAbort((reason) => heard.push(['b', reason]));
    cancel.abort('first');
    cancel.abort('second');
    expect(heard).toEqual([['a', 'first'], ['b', 'first']]);
    expect(cancel).toMatchObject({ aborted: true, reason: 'first' });
  });

  it('a listener added after the abort hears it at once; a removed one never does', () => {
    const cancel = new Cancel();
    const heard: string[] = [];
    const stop = cancel.onAbort(() => heard.push('removed'));
    stop();
    cancel.abort({ code: -32001, message: 'Request timed out' });
    cancel.onAbort(() => heard.push('late'));
    expect(heard).toEqual(['late']);
  });

  it('gives a standard AbortSignal on demand, aborted with the same reason before or after it was made', () => {
    const before = new Cancel();
    const signal = before.signal;
    expect(signal.aborted).toBe(false);
    before.abort('Disconnected');
    expect(signal).toMatchObject({ aborted: true, reason: 'Disconnected' });
    const after = new Cancel();
    after.abort('Cancelled');
    expect(after.signal).toMatchObject({ aborted: true, reason: 'Cancelled' });
  });
});
