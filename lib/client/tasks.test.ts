import { describe, expect, it } from 'vitest';
import { carriedOutcome, createdTask, isTerminal, mergeTask, parseTask, parseTaskList, pollDelay, serverRunsToolTasks, serverTaskFeature, taskCallParams, taskHandle, taskSupportOf, wantsResult } from './tasks.ts';

const working = { taskId: 't1', status: 'working', createdAt: '2026-01-01T00:00:00Z', lastUpdatedAt: '2026-01-01T00:00:01Z', ttl: 300000, pollInterval: 1000 };

describe('negotiation', () => {
  it('reads a tool\'s taskSupport, defaulting to forbidden', () => {
    expect(taskSupportOf({ name: 'a', execution: { taskSupport: 'required' } })).toBe('required');
    expect(taskSupportOf({ name: 'a', execution: { taskSupport: 'optional' } })).toBe('optional');
    expect(taskSupportOf({ name: 'a', execution: { taskSupport: 'sometimes' } })).toBe('forbidden');
    expect(taskSupportOf({ name: 'a' })).toBe('forbidden');
    expect(taskSupportOf(null)).toBe('forbidden');
  });

  it('reads the server\'s task capabilities', () => {
    const caps = { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
    expect(serverRunsToolTasks(caps)).toBe(true);
    expect(serverRunsToolTasks({ tasks: { list: {} } })).toBe(false);
    expect(serverRunsToolTasks(undefined)).toBe(false);
    expect(serverTaskFeature(caps, 'list')).toBe(true);
    expect(serverTaskFeature({ tasks: {} }, 'cancel')).toBe(false);
  });
});

describe('parsing', () => {
  it('reads a task and a CreateTaskResult', () => {
    expect(parseTask(working)).toEqual({ ...working, statusMessage: undefined });
    expect(parseTask({ taskId: 't', status: 'working', ttl: null, pollInterval: -1 })).toMatchObject({ ttl: null, pollInterval: undefined });
    expect(parseTask({ taskId: 1, status: 'working' })).toBeUndefined();
    expect(createdTask({ task: working })?.taskId).toBe('t1');
    expect(createdTask({ content: [] })).toBeUndefined();
  });

  it('reads tasks/list and names the bad items', () => {
    expect(parseTaskList({ tasks: [working, { status: 'x' }], nextCursor: 'c' })).toEqual({ tasks: [parseTask(working)], nextCursor: 'c', problems: ['task #2 has no string taskId and status'] });
    expect(parseTaskList({})).toEqual({ tasks: [], problems: ['the result has no "tasks" array'] });
  });
});

describe('life cycle', () => {
  it('knows the terminal statuses and when to fetch the result', () => {
    expect(['completed', 'failed', 'cancelled'].every(isTerminal)).toBe(true);
    expect(isTerminal('working') || isTerminal('input_required') || isTerminal('mystery')).toBe(false);
    expect(wantsResult('input_required') && wantsResult('completed')).toBe(true);
    expect(wantsResult('working')).toBe(false);
  });

  it('polls within bounds', () => {
    expect(pollDelay({ taskId: 't', status: 'working' })).toBe(1000);
    expect(pollDelay({ taskId: 't', status: 'working', pollInterval: 5 })).toBe(250);
    expect(pollDelay({ taskId: 't', status: 'working', pollInterval: 3_600_000 })).toBe(10_000);
  });

  it('merges newer reports and never goes back', () => {
    const known = parseTask(working)!;
    const done = { ...known, status: 'completed', lastUpdatedAt: '2026-01-01T00:00:05Z' };
    expect(mergeTask(known, done).status).toBe('completed');
    expect(mergeTask(done, known).status).toBe('completed');
    const stale = { ...known, status: 'input_required', lastUpdatedAt: '2025-12-31T00:00:00Z' };
    expect(mergeTask(known, stale).status).toBe('working');
    expect(mergeTask(known, { taskId: 't1', status: 'input_required', statusMessage: 'Need input' })).toMatchObject({ status: 'input_required', statusMessage: 'Need input', ttl: 300000 });
    expect(mergeTask(undefined, known)).toBe(known);
  });

  it('builds a task-augmented tools/call', () => {
    expect(taskCallParams('research', { topic: 'x' })).toEqual({ name: 'research', arguments: { topic: 'x' }, task: {} });
    expect(taskCallParams('research', undefined, 60_000)).toEqual({ name: 'research', arguments: {}, task: { ttl: 60_000 } });
  });
});

describe('the tasks extension (2026-07-28, SEP-2663)', () => {
  const handle = { resultType: 'task', taskId: 'job-1', status: 'working', pollIntervalMs: 300, ttlMs: 60_000, createdAt: '2026-07-28T00:00:00Z' };

  it('reads a task handle, flat or nested, and nothing else', () => {
    expect(taskHandle(handle)).toMatchObject({ taskId: 'job-1', status: 'working', pollInterval: 300, ttl: 60_000 });
    expect(pollDelay(taskHandle(handle)!)).toBe(300);
    expect(taskHandle({ resultType: 'task', task: { taskId: 'n', status: 'working' } })?.taskId).toBe('n');
    // A handle carries no result: one sent anyway is not taken for the final result.
    expect(taskHandle({ ...handle, result: { content: [] } })?.result).toBeUndefined();
    expect(taskHandle({ taskId: 'x', status: 'working' })).toBeUndefined();
    expect(taskHandle({ resultType: 'complete', content: [] })).toBeUndefined();
  });

  it('takes the final result or error from the task tasks/get returns', () => {
    const done = parseTask({ taskId: 'job-1', status: 'completed', result: { content: [{ type: 'text', text: 'Job done' }] } })!;
    expect(carriedOutcome(done)).toEqual({ ok: true, result: { content: [{ type: 'text', text: 'Job done' }] } });
    const failed = parseTask({ taskId: 'job-1', status: 'failed', error: { code: -32603, message: 'disk full' } })!;
    expect(carriedOutcome(failed)).toEqual({ ok: false, error: { code: -32603, message: 'disk full', data: undefined } });
    expect(carriedOutcome(parseTask({ taskId: 'job-1', status: 'failed', statusMessage: 'gone' })!)).toMatchObject({ ok: false, error: { message: 'gone' } });
    expect(carriedOutcome(parseTask({ taskId: 'job-1', status: 'working' })!)).toBeUndefined();
  });
});
