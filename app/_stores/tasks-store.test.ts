import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PortFixture } from '../_wire/port-fixture.ts';
import { followTaskCall, TasksStore } from './tasks-store.ts';


const task = (status: string, extra: Record<string, unknown> = {}) => ({ taskId: 't1', status, createdAt: '2026-01-01T00:00:00Z', lastUpdatedAt: '2026-01-01T00:00:01Z', ttl: 60_000, pollInterval: 500, ...extra });
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('TasksStore', () => {
  let app: PortFixture;
  let store: TasksStore;
  beforeEach(() => {
    vi.useFakeTimers();
    app = new PortFixture();
    app.connect();
    store = new TasksStore(app.port);
  });
  afterEach(() => {
    store.dispose();
    vi.useRealTimers();
  });

  it('runs a tool as a task, polls it until it ends, then fetches its result', async () => {
    const run = store.run('research', { topic: 'x' });
    expect(app.requests[0]).toMatchObject({ method: 'tools/call', params: { name: 'research', arguments: { topic: 'x' }, task: {} } });
    app.answer('tools/call', { task: task('working') });
    await run;
    expect(store.getSnapshot().run).toMatchObject({ status: 'done', taskId: 't1' });
    expect(store.getSnapshot().tasks[0]).toMatchObject({ tool: 'research', startedHere: true, info: { status: 'working' } });

    await vi.advanceTimersByTimeAsync(500);
    app.answer('tasks/get', task('working', { statusMessage: 'half way', lastUpdatedAt: '2026-01-01T00:00:02Z' }));
    await settle();
    expect(store.getSnapshot().tasks[0].info.statusMessage).toBe('half way');

    await vi.advanceTimersByTimeAsync(500);
    app.answer('tasks/get', task('completed', { lastUpdatedAt: '2026-01-01T00:00:03Z' }));
    await settle();
    expect(store.getSnapshot().tasks[0].result.state).toBe('waiting');
    app.answer('tasks/result', { content: [{ type: 'text', text: 'done' }] });
    await settle();
    expect(store.getSnapshot().tasks[0].result).toMatchObject({ state: 'done', outcome: { ok: true, result: { content: [{ text: 'done' }] } } });

    // Ended: no more polls.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(app.requests).toEqual([]);
  });

  it('asks for the result as soon as a status notification says the task needs input', async () => {
    const run = store.run('research', {});
    app.answer('tools/call', { task: task('working') });
    await run;
    const raw = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tasks/status', params: task('input_required', { lastUpdatedAt: '2026-01-01T00:00:05Z' }) });
    app.emit([{ kind: 'frame', session: 's', seq: 1, ts: 1, dir: 'in', raw, size: raw.length, rpc: 'notification', method: 'notifications/tasks/status' }]);
    expect(store.getSnapshot().tasks[0].info.status).toBe('input_required');
    expect(app.requests.map((r) => r.method)).toEqual(['tasks/result']);
  });

  it('cancels, and a cancelled task is neither polled nor asked for a result', async () => {
    const run = store.run('research', {});
    app.answer('tools/call', { task: task('working') });
    await run;
    const cancel = store.cancel('t1');
    expect(store.getSnapshot().tasks[0].cancel).toEqual({ state: 'sending' });
    app.answer('tasks/cancel', task('cancelled', { lastUpdatedAt: '2026-01-01T00:00:04Z' }));
    await cancel;
    expect(store.getSnapshot().tasks[0]).toMatchObject({ info: { status: 'cancelled' }, cancel: undefined });
    await vi.advanceTimersByTimeAsync(500);
    app.answer('tasks/get', task('cancelled', { lastUpdatedAt: '2026-01-01T00:00:04Z' }));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(app.requests).toEqual([]);
  });

  it('keeps a plain answer to a task run (the server ignored params.task) without inventing a task', async () => {
    const run = store.run('research', {});
    app.answer('tools/call', { content: [{ type: 'text', text: 'sync' }] });
    await run;
    expect(store.getSnapshot().tasks).toEqual([]);
    expect(store.getSnapshot().run).toMatchObject({ status: 'done', taskId: undefined, outcome: { ok: true } });
  });

  it('lists tasks over every page and merges them with known ones', async () => {
    const listing = store.refreshList();
    app.answer('tasks/list', { tasks: [task('working')], nextCursor: 'p2' });
    await settle();
    expect(app.requests[0]).toMatchObject({ method: 'tasks/list', params: { cursor: 'p2' } });
    app.answer('tasks/list', { tasks: [{ ...task('completed'), taskId: 't2' }, { bogus: true }] });
    await listing;
    const state = store.getSnapshot();
    expect(state.tasks.map((t) => [t.info.taskId, t.info.status, t.startedHere])).toEqual([['t2', 'completed', false], ['t1', 'working', false]]);
    expect(state.list).toEqual({ status: 'done', problems: ['task #2 has no string taskId and status'] });
  });

  it('runs required-task tools as tasks unless the user says otherwise', () => {
    expect(store.runsAsTask('a', 'required')).toBe(true);
    expect(store.runsAsTask('a', 'optional')).toBe(false);
    expect(store.runsAsTask('a', 'forbidden')).toBe(false);
    store.setAsTask('a', false);
    expect(store.runsAsTask('a', 'required')).toBe(false);
    store.setAsTask('a', true);
    expect(store.runsAsTask('a', 'forbidden')).toBe(false);
  });

  it('follows a 2026-07-28 task handle with tasks/get at its pollIntervalMs until it ends, taking the result it carries', async () => {
    const handle = { resultType: 'task', taskId: 'job-1', status: 'working', pollIntervalMs: 300 };
    expect(store.adopt({ content: [{ type: 'text', text: 'plain' }] }, { id: 'c0', tool: 'long-job', args: {}, startedAt: 1, durationMs: 1 })).toBe(false);
    expect(store.adopt(handle, { id: 'c1', tool: 'long-job', args: { n: 1 }, startedAt: 1, durationMs: 2 })).toBe(true);
    expect(store.getSnapshot().run).toMatchObject({ id: 'c1', status: 'done', taskId: 'job-1', modern: true });
    expect(store.getSnapshot().tasks[0]).toMatchObject({ tool: 'long-job', startedHere: true, modern: true, callId: 'c1', info: { status: 'working' } });

    await vi.advanceTimersByTimeAsync(299);
    expect(app.requests).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(app.requests[0]).toMatchObject({ method: 'tasks/get', params: { taskId: 'job-1' } });
    app.answer('tasks/get', { taskId: 'job-1', status: 'working', statusMessage: 'step 2 of 3', pollIntervalMs: 300 });
    await settle();
    expect(store.getSnapshot().tasks[0].info.statusMessage).toBe('step 2 of 3');

    await vi.advanceTimersByTimeAsync(300);
    app.answer('tasks/get', { taskId: 'job-1', status: 'completed', result: { content: [{ type: 'text', text: 'Job done' }] } });
    await settle();
    expect(store.getSnapshot().tasks[0].result).toMatchObject({ state: 'done', outcome: { ok: true, result: { content: [{ text: 'Job done' }] } } });
    // No tasks/result on 2026-07-28, and no more polls once it ended.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(app.requests).toEqual([]);

    // The Result region shows the call with the result the task carried, not the handle.
    const call = { id: 'c1', session: 's', tool: 'long-job', args: {}, startedAt: 1, status: 'done' as const, settings: { timeoutMs: 1, resetTimeoutOnProgress: true }, outcome: { ok: true as const, result: handle, durationMs: 2 } };
    expect(followTaskCall(call, store.getSnapshot())?.outcome).toMatchObject({ ok: true, result: { content: [{ text: 'Job done' }] } });
    expect(followTaskCall({ ...call, id: 'other' }, store.getSnapshot())).toMatchObject({ outcome: { result: handle } });
  });

  it('asks tasks/get, not tasks/result, for a 2026-07-28 task\'s result, and after a cancel', async () => {
    store.adopt({ resultType: 'task', taskId: 'job-2', status: 'working', pollIntervalMs: 10_000 }, { id: 'c2', tool: 'long-job', args: {}, startedAt: 1, durationMs: 1 });
    const result = store.fetchResult('job-2');
    expect(app.requests.map((r) => r.method)).toEqual(['tasks/get']);
    app.answer('tasks/get', { taskId: 'job-2', status: 'failed', error: { code: -32000, message: 'disk full' } });
    await result;
    expect(store.getSnapshot().tasks[0].result).toMatchObject({ state: 'done', outcome: { ok: false, error: { message: 'disk full' } } });

    store.adopt({ resultType: 'task', taskId: 'job-3', status: 'working', pollIntervalMs: 10_000 }, { id: 'c3', tool: 'long-job', args: {}, startedAt: 1, durationMs: 1 });
    const cancel = store.cancel('job-3');
    app.answer('tasks/cancel', {});
    await settle();
    expect(app.requests.map((r) => r.method)).toEqual(['tasks/get']);
    app.answer('tasks/get', { taskId: 'job-3', status: 'cancelled' });
    await cancel;
    expect(store.getSnapshot().tasks.find((t) => t.info.taskId === 'job-3')?.info.status).toBe('cancelled');
  });
});
