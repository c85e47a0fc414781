import { describe, expect, it } from 'vitest';
import { TraceIndex } from './row-index.ts';
import { defaultSecretChoice, exportTrace, looksSecret, maskConfig, secretCandidates, TRACE_FORMAT } from './jsonl.ts';
import { parseTrace } from './read-trace.ts';
import type { SessionInfo, TraceEvent } from '../wire/wire.ts';

const session: SessionInfo = {
  id: 's1',
  name: 'demo',
  config: { kind: 'stdio', command: 'node', args: ['server.js'], env: { API_KEY: 'sk-live-123456', REGION: 'eu-west' } },
  status: 'connected',
  since: 1,
  serverInfo: { name: 'demo', version: '1.0.0' },
  protocolVersion: '2025-11-25',
  transport: 'stdio',
  pid: 4242,
};

const events: TraceEvent[] = [
  { session: 's1', seq: 1, ts: 1000.5, kind: 'transport', level: 'info', message: 'Connecting' },
  { session: 's1', seq: 2, ts: 1001, kind: 'frame', dir: 'out', raw: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get-env"}}', size: 70, rpc: 'request', method: 'tools/call', id: 1 },
  { session: 's1', seq: 3, ts: 1003.25, kind: 'frame', dir: 'in', raw: '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"API_KEY=sk-live-123456"}]}}', size: 90, rpc: 'response', id: 1 },
  { session: 's1', seq: 4, ts: 1004, kind: 'noise', text: 'hello' },
  { session: 's1', seq: 5, ts: 1005, kind: 'stderr', text: 'log\n' },
];

describe('secrets', () => {
  it('suggests names that look secret', () => {
    expect(looksSecret('API_KEY')).toBe(true);
    expect(looksSecret('GITHUB_TOKEN')).toBe(true);
    expect(looksSecret('Authorization')).toBe(true);
    expect(looksSecret('REGION')).toBe(false);
    expect(secretCandidates(session.config).env).toEqual([{ name: 'API_KEY', suggested: true }, { name: 'REGION', suggested: false }]);
  });
  it('masks the marked env values and header values (case-insensitively for headers)', () => {
    const masked = maskConfig(session.config, { env: ['API_KEY'], headers: [], redactInEvents: false });
    expect(masked).toMatchObject({ env: { API_KEY: '•••• (14 chars, masked)', REGION: 'eu-west' } });
    const http = maskConfig({ kind: 'http', url: 'http://h/mcp', transport: 'auto', headers: { 'X-Api-Key': 'abcdef', Accept: 'x' } }, { env: [], headers: ['x-api-key'], redactInEvents: false });
    expect(http).toMatchObject({ headers: { 'X-Api-Key': '•••• (6 chars, masked)', Accept: 'x' } });
  });
});

describe('exportTrace / parseTrace', () => {
  const rows = TraceIndex.from(events).rows;

  it('writes a header line and one line per event with its metadata', () => {
    const text = exportTrace({ session, rows, secrets: defaultSecretChoice(session.config), exportedBy: 'MCP Loupe test', now: new Date(0) });
    const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatchObject({ format: TRACE_FORMAT, version: 1, exportedAt: '1970-01-01T00:00:00.000Z', session: { id: 's1', serverInfo: { name: 'demo' } }, stats: { exported: 5 } });
    expect(lines[0].session.pid).toBeUndefined();
    expect(lines[0].session.config.env.API_KEY).toBe('•••• (14 chars, masked)');
    expect(lines[2]).toMatchObject({ seq: 2, kind: 'frame', dir: 'out', method: 'tools/call', meta: { partnerSeq: 3, latencyMs: 2.25 } });
    expect(lines[3].meta).toMatchObject({ method: 'tools/call', partnerSeq: 2 });
    expect(lines[4].meta.violations[0].code).toBe('stdout-noise');
    expect(text).not.toContain('sk-live-123456');
  });

  it('keeps values in events when asked to', () => {
    const text = exportTrace({ session, rows, secrets: { env: ['API_KEY'], headers: [], redactInEvents: false }, exportedBy: 'x' });
    expect(text.split('\n')[0]).not.toContain('sk-live-123456');
    expect(text).toContain('API_KEY=sk-live-123456');
  });

  it('does not mask a mask again (re-exporting an imported trace)', () => {
    const secrets = { env: ['API_KEY'], headers: [], redactInEvents: true };
    const first = exportTrace({ session, rows, secrets, exportedBy: 'x' });
    const parsed = parseTrace(first);
    if (!parsed.ok) throw new Error(parsed.error);
    const imported = { ...session, config: parsed.trace.header.session.config };
    const second = exportTrace({ session: imported, rows: TraceIndex.from(parsed.trace.events).rows, secrets, exportedBy: 'x' });
    expect(second.split('\n').slice(1)).toEqual(first.split('\n').slice(1));
    expect(JSON.parse(second.split('\n')[0]).session.config.env.API_KEY).toBe('•••• (14 chars, masked)');
  });

  it('round-trips: the imported events are the exported ones', () => {
    const text = exportTrace({ session, rows, secrets: { env: [], headers: [], redactInEvents: false }, exportedBy: 'x' });
    const parsed = parseTrace(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.trace.events).toEqual(events);
    expect(parsed.trace.problemCount).toBe(0);
    const again = TraceIndex.from(parsed.trace.events).rows.map((r) => [r.seq, r.kind, r.method, r.latencyMs]);
    expect(again).toEqual(rows.map((r) => [r.seq, r.kind, r.method, r.latencyMs]));
  });

  it('refuses a file without a header, and skips bad lines with their numbers', () => {
    expect(parseTrace('{"jsonrpc":"2.0"}\n')).toMatchObject({ ok: false });
    expect(parseTrace('not json')).toMatchObject({ ok: false });
    const header = JSON.stringify({ format: TRACE_FORMAT, version: 1, session: { id: 's9' } });
    const parsed = parseTrace(`${header}\n${JSON.stringify(events[1])}\nnope\n{"kind":"frame"}\n\n`);
    expect(parsed).toMatchObject({ ok: true, trace: { problemCount: 2, problems: [{ line: 3, error: 'not JSON' }, { line: 4 }] } });
    expect(parseTrace(JSON.stringify({ format: TRACE_FORMAT, version: 99, session: { id: 'x' } }))).toMatchObject({ ok: false, error: expect.stringMatching(/newer/) });
  });
});

describe('exportTrace: spec events (issue 14)', () => {
  it('writes the spec events of the exported rows in seq order, redacted, and reads them back onto their frames', () => {
    const spec: TraceEvent = { session: 's1', seq: 6, ts: 1006, kind: 'spec', of: 3, version: '2025-11-25', schema: 'CallToolResult', issues: ['result.content[0].text: "API_KEY=sk-live-123456" is wrong'] };
    const index = TraceIndex.from([...events, spec]);
    const text = exportTrace({ session, rows: index.rows, attached: (row) => index.specEvents(row), secrets: defaultSecretChoice(session.config), exportedBy: 'x' });
    const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.seq)).toEqual([undefined, 1, 2, 3, 4, 5, 6]);
    expect(lines[0].stats.exported).toBe(6);
    expect(text).not.toContain('sk-live-123456');
    const parsed = parseTrace(text);
    if (!parsed.ok) throw new Error(parsed.error);
    const reread = TraceIndex.from(parsed.trace.events);
    expect(reread.rows).toHaveLength(5);
    expect(reread.find(3)?.violations?.map((v) => v.code)).toEqual(['spec-schema']);
    // Only the rows exported: a filter that left the frame out leaves its spec event out too.
    const shown = exportTrace({ session, rows: index.rows.filter((r) => r.seq !== 3), attached: (row) => index.specEvents(row), secrets: defaultSecretChoice(session.config), exportedBy: 'x' });
    expect(shown).not.toContain('"kind":"spec"');
  });
});

describe('exportTrace: credentials in HTTP exchanges (issue 21)', () => {
  it('masks them by header name and by the config values, whatever the choice of names', () => {
    const key = 'AIzaSyD-fake9tSrke72PouQMnMX-a7eZSW0jkF';
    const remote: SessionInfo = { ...session, config: { kind: 'http', url: 'http://h/mcp', transport: 'auto', headers: { 'X-Goog-Api-Key': key, Accept: 'application/json' } } };
    // As an older Loupe recorded it: the header in clear.
    const http: TraceEvent = { session: 's1', seq: 1, ts: 1, kind: 'http', method: 'POST', url: 'http://h/mcp', requestHeaders: { 'x-goog-api-key': key, 'x-echo': key }, durationMs: 1 };
    expect(defaultSecretChoice(remote.config).headers).toEqual(['X-Goog-Api-Key']);
    const text = exportTrace({ session: remote, rows: TraceIndex.from([http]).rows, secrets: defaultSecretChoice(remote.config), exportedBy: 'x' });
    expect(text).not.toContain(key);
    const none = exportTrace({ session: remote, rows: TraceIndex.from([http]).rows, secrets: { env: [], headers: [], redactInEvents: false }, exportedBy: 'x' });
    expect(JSON.parse(none.split('\n')[1]).requestHeaders['x-goog-api-key']).toBe(`•••• (${key.length} chars, masked)`);
  });
});
