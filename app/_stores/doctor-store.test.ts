import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DoctorReport } from '../../lib/model/doctor.ts';
import { DOCTOR_GIVE_UP_MS, DoctorStore } from './doctor-store.ts';
import { MessageHostFixture } from '../_wire/message-host-fixture.ts';

class Host extends MessageHostFixture {
  /** The requestId of the last run-doctor sent. */
  lastRequest(): string {
    const last = this.sent[this.sent.length - 1];
    if (last?.type !== 'run-doctor') throw new Error('no run-doctor sent');
    return last.requestId;
  }
}

const report = (name: string): DoctorReport => ({
  server: { name },
  protocolVersion: '2025-11-25',
  findings: [{ severity: 'error', about: { kind: 'tool', name: 'get weather' }, rule: 'tool-name-characters', message: 'Tool "get weather" has a space in its name.', fix: 'Use letters, digits, _ and - only.', source: { label: 'Tools', url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools' } }],
  counts: { error: 1, warning: 0, info: 0 },
});

afterEach(() => {
  vi.useRealTimers();
});

describe('DoctorStore', () => {
  it('sends run-doctor and keeps the report that answers it, by session', () => {
    const host = new Host();
    const store = new DoctorStore(host, () => 1234);
    expect(store.run('s1')).toBe(true);
    const id = host.lastRequest();
    expect(host.sent).toEqual([{ type: 'run-doctor', session: 's1', requestId: id }]);
    expect(store.getSnapshot().runs.s1).toEqual({ pending: id });
    host.deliver({ type: 'doctor-report', session: 's1', requestId: id, report: report('one') });
    expect(store.getSnapshot().runs.s1).toEqual({ report: report('one'), at: 1234 });
    store.dispose();
  });

  it('ignores a report it did not ask for, or one overtaken by a newer run', () => {
    const host = new Host();
    const store = new DoctorStore(host);
    host.deliver({ type: 'doctor-report', session: 's1', requestId: 'nobody', report: report('stray') });
    expect(store.getSnapshot().runs.s1).toBeUndefined();
    store.run('s1');
    const first = host.lastRequest();
    store.run('s1');
    const second = host.lastRequest();
    host.deliver({ type: 'doctor-report', session: 's1', requestId: first, report: report('old') });
    expect(store.getSnapshot().runs.s1.report).toBeUndefined();
    expect(store.getSnapshot().runs.s1.pending).toBe(second);
    host.deliver({ type: 'doctor-report', session: 's1', requestId: second, report: report('new') });
    expect(store.getSnapshot().runs.s1.report?.server.name).toBe('new');
    store.dispose();
  });

  it("keeps the earlier report when a run fails, with the proxy's words", () => {
    const host = new Host();
    const store = new DoctorStore(host);
    store.run('s1');
    host.deliver({ type: 'doctor-report', session: 's1', requestId: host.lastRequest(), report: report('first') });
    store.run('s1');
    host.deliver({ type: 'doctor-report', session: 's1', requestId: host.lastRequest(), error: { code: 'NOT_CONNECTED', message: 'The session is not connected.', hint: 'Connect it first.' } });
    const run = store.getSnapshot().runs.s1;
    expect(run.pending).toBeUndefined();
    expect(run.report?.server.name).toBe('first');
    expect(run.problem).toEqual({ message: 'The session is not connected.', hint: 'Connect it first.' });
    store.dispose();
  });

  it('says so when the socket is down, when it drops mid-run, and when no answer comes', () => {
    vi.useFakeTimers();
    const host = new Host();
    const store = new DoctorStore(host);
    host.open = false;
    expect(store.run('s1')).toBe(false);
    expect(store.getSnapshot().runs.s1.problem?.message).toMatch(/^Not connected to Loupe/);
    host.open = true;
    store.run('s1');
    host.deliver({ type: 'snapshot', version: 1, sessions: [], events: [], stats: [] });
    expect(store.getSnapshot().runs.s1.pending).toBeUndefined();
    expect(store.getSnapshot().runs.s1.problem?.message).toMatch(/dropped before the report arrived/);
    store.run('s2');
    vi.advanceTimersByTime(DOCTOR_GIVE_UP_MS - 1);
    expect(store.getSnapshot().runs.s2.pending).toBeDefined();
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot().runs.s2.pending).toBeUndefined();
    expect(store.getSnapshot().runs.s2.problem?.message).toMatch(/stopped waiting/);
    store.dispose();
  });

  it('forgets a removed session, and keeps the severity filter and export format', () => {
    const host = new Host();
    const store = new DoctorStore(host);
    let changes = 0;
    store.subscribe(() => changes++);
    store.run('s1');
    host.deliver({ type: 'doctor-report', session: 's1', requestId: host.lastRequest(), report: report('one') });
    host.deliver({ type: 'session-removed', session: 's1' });
    expect(store.getSnapshot().runs).toEqual({});
    store.setFilter({ info: false });
    store.setFormat('gemini');
    expect(store.getSnapshot().filter).toEqual({ error: true, warning: true, info: false });
    expect(store.getSnapshot().format).toBe('gemini');
    expect(changes).toBe(5);
    store.dispose();
    host.deliver({ type: 'doctor-report', session: 's1', requestId: 'x', report: report('late') });
    expect(changes).toBe(5);
  });
});
