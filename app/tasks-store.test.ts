import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PortFixture } from './port-fixture.ts';
import { TasksStore } from './tasks-store.ts';


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
});
