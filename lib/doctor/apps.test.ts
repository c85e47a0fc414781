/**
 * The doctor's MCP Apps checks (lib/doctor/apps.ts): every rule with an input that breaks it and
 * one that does not, in the words the user reads; the view frames of a trace; the spec findings
 * leaving a view's frames alone; then the apps fixture (e2e/fixtures/apps-server.mjs) over stdio,
 * where each planted problem is found and nothing else of the views' kind.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { appFindings, viewFrameFindings } from './apps.ts';
import { runDoctor } from './doctor.ts';
import { specFindingsOf } from './spec.ts';
import type { DoctorInput, Finding, ListFetch, Severity, ViewFetch } from '../model/doctor.ts';
import type { FrameEvent, SpecEvent, TraceEvent } from '../wire/events.ts';

const MIME = 'text/html;profile=mcp-app';
const HTML = '<!DOCTYPE html><html><body>view</body></html>';
const list = (items: unknown[], more: Partial<ListFetch> = {}): ListFetch => ({ items, cursors: [], ...more });
const tool = (name: string, meta?: unknown) => ({ name, title: name, description: 'd', inputSchema: { type: 'object' }, ...(meta === undefined ? {} : { _meta: meta }) });
const linking = (name: string, uri: string) => tool(name, { ui: { resourceUri: uri } });
const listed = (uri: string) => ({ uri, name: uri, mimeType: MIME });
const readOf = (uri: string, more: Record<string, unknown> = {}): ViewFetch => ({ result: { contents: [{ uri, mimeType: MIME, text: HTML, ...more }] } });
const input = (tools: unknown[], views: Record<string, ViewFetch> = {}, resources: unknown[] = Object.keys(views).map(listed)): DoctorInput => ({
  server: { name: 'apps' },
  lists: { tools: list(tools), resources: list(resources) },
  views,
});
const V = 'ui://w/view';

interface Case { name: string; rule: string; severity: Severity; failing: DoctorInput; passing: DoctorInput; words: string[] }
const CASES: Case[] = [
  { name: 'a read that failed', rule: 'app-view-missing', severity: 'error', failing: input([linking('t', V)], { [V]: { error: { code: -32602, message: 'Resource not found: ui://w/view' } } }), passing: input([linking('t', V)], { [V]: readOf(V) }), words: ['The view ui://w/view, linked by tool "t", cannot be read: resources/read failed: Resource not found: ui://w/view.', 'Serve ui://w/view as a resource'] },
  { name: 'text/html without the profile', rule: 'app-view-mime', severity: 'error', failing: input([linking('t', V)], { [V]: readOf(V, { mimeType: 'text/html' }) }), passing: input([linking('t', V)], { [V]: readOf(V) }), words: ['The resource ui://w/view is text/html, not text/html;profile=mcp-app, so hosts do not render it as the view linked by tool "t".', 'mimeType "text/html;profile=mcp-app"'] },
  { name: 'an answer for another URI', rule: 'app-view-content', severity: 'error', failing: input([linking('t', V), linking('u', V)], { [V]: { result: { contents: [{ uri: 'ui://w/other', mimeType: MIME, text: HTML }] } } }), passing: input([linking('t', V)], { [V]: readOf(V) }), words: ['has no content for that URI (it has ui://w/other), so the view linked by tools "t" and "u" cannot be shown.'] },
  { name: 'a view resources/list does not name', rule: 'app-view-unlisted', severity: 'info', failing: input([linking('t', V)], { [V]: readOf(V) }, []), passing: input([linking('t', V)], { [V]: readOf(V) }), words: ['The view ui://w/view, linked by tool "t", is not in resources/list; the spec allows that, but hosts that review views when they connect do not see it.'] },
  { name: 'an https link', rule: 'app-view-uri-scheme', severity: 'error', failing: input([linking('t', 'https://example.com/view')]), passing: input([linking('t', V)]), words: ['Tool "t" links the view https://example.com/view in _meta.ui.resourceUri, which is not a ui:// URI, so hosts cannot render it.'] },
  { name: 'the flat key alone', rule: 'app-view-uri-deprecated', severity: 'warning', failing: input([tool('t', { 'ui/resourceUri': V })]), passing: input([tool('t', { ui: { resourceUri: V }, 'ui/resourceUri': V })]), words: ['Tool "t" names its view ui://w/view only in the deprecated _meta["ui/resourceUri"], which the spec will remove.', 'Put the URI in _meta.ui.resourceUri'] },
  { name: 'two keys, two views', rule: 'app-view-uri-conflict', severity: 'warning', failing: input([tool('t', { ui: { resourceUri: V }, 'ui/resourceUri': 'ui://w/old' })]), passing: input([tool('t', { ui: { resourceUri: V }, 'ui/resourceUri': V })]), words: ['Tool "t" links ui://w/view in _meta.ui.resourceUri but ui://w/old in the deprecated _meta["ui/resourceUri"]'] },
  { name: 'a CSP that allows every host', rule: 'app-csp-too-wide', severity: 'warning', failing: input([linking('t', V)], { [V]: readOf(V, { _meta: { ui: { csp: { resourceDomains: ['*', 'https://cdn.example.com'], connectDomains: ['https:'] } } } }) }), passing: input([linking('t', V)], { [V]: readOf(V, { _meta: { ui: { csp: { resourceDomains: ['https://*.example.com'] } } } }) }), words: ['The view ui://w/view declares CSP sources that are too wide: connectDomains "https:" allows every host over https; resourceDomains "*" allows every host. Loupe leaves them out'] },
  { name: 'a CSP entry with a directive in it', rule: 'app-csp-malformed', severity: 'warning', failing: input([linking('t', V)], { [V]: readOf(V, { _meta: { ui: { csp: { connectDomains: ['https://a.com; script-src *'], resourceDomains: ['https://a.com/x.js'] } } } }) }), passing: input([linking('t', V)], { [V]: readOf(V, { _meta: { ui: { csp: { connectDomains: ['https://a.com'] } } } }) }), words: ['The view ui://w/view declares CSP entries that are not origins: connectDomains "https://a.com; script-src *" contains a semicolon, which would start another directive; resourceDomains "https://a.com/x.js" has a path (/x.js)', 'scheme://host[:port]'] },
  { name: 'the listing\'s CSP when the content has none', rule: 'app-csp-too-wide', severity: 'warning', failing: input([linking('t', V)], { [V]: readOf(V) }, [{ ...listed(V), _meta: { ui: { csp: { frameDomains: ['https://*'] } } } }]), passing: input([linking('t', V)], { [V]: readOf(V, { _meta: { ui: {} } }) }, [{ ...listed(V), _meta: { ui: { csp: { frameDomains: ['https://*'] } } } }]), words: ['frameDomains "https://*" allows every host over https'] },
  { name: 'a visibility the spec does not define', rule: 'app-visibility-malformed', severity: 'warning', failing: input([tool('t', { ui: { visibility: ['modal'] } })]), passing: input([tool('t', { ui: { visibility: ['model'] } })]), words: ['Tool "t" has a malformed _meta.ui: its visibility ["modal"] names neither "model" nor "app", so the default (both) applies.'] },
  { name: 'an app-only tool and no view', rule: 'app-only-tool-unreachable', severity: 'info', failing: input([tool('refresh', { ui: { visibility: ['app'] } })]), passing: input([tool('refresh', { ui: { visibility: ['app'] } }), linking('t', V)]), words: ['Tool "refresh" may be called by views only (visibility ["app"]), but no tool of this server links a view, so nothing can call it.'] },
];

const rules = (findings: Finding[]) => findings.map((f) => f.rule);

describe.each(CASES)('$rule: $name', ({ rule, severity, failing, passing, words }) => {
  it('is found, in words the user reads, with its source', () => {
    const hits = appFindings(failing).filter((f) => f.rule === rule);
    expect(hits).toHaveLength(1);
    expect(hits[0].severity).toBe(severity);
    for (const w of words) expect(`${hits[0].message} ${hits[0].fix}`).toContain(w);
    expect(hits[0].source.url).toMatch(/^https:\/\/github\.com\/modelcontextprotocol\/ext-apps\/blob\/main\/specification\/2026-01-26\/apps\.mdx#/);
  });
  it('is not found on the passing input', () => {
    expect(rules(appFindings(passing))).not.toContain(rule);
  });
});

describe('appFindings', () => {
  it('says a view that cannot be read is missing, not also that it is unlisted', () => {
    expect(rules(appFindings(input([linking('t', V)], { [V]: { error: { message: 'Resource not found' } } }, [])))).toEqual(['app-view-missing']);
  });
  it('finds nothing on a server without views, nor on views it did not read', () => {
    expect(appFindings(input([tool('echo')]))).toEqual([]);
    expect(appFindings({ server: { name: 's' }, lists: { tools: list([linking('t', V)]), resources: list([listed(V)]) } })).toEqual([]);
    // A list that failed or was cut short says nothing of what it lacks.
    expect(rules(appFindings({ server: { name: 's' }, lists: { tools: list([linking('t', V)]), resources: list([], { stopped: 'more than 50 pages' }) } }))).toEqual([]);
  });
  it('is part of the doctor\'s report', () => {
    const report = runDoctor(input([linking('t', V)], { [V]: { error: { message: 'gone' } } }));
    expect(rules(report.findings)).toContain('app-view-missing');
    expect(report.counts.error).toBeGreaterThan(0);
  });
});

// ---- frames --------------------------------------------------------------------------------------

let seq = 0;
const frame = (view: string | undefined, dir: FrameEvent['dir'], message: Record<string, unknown>): FrameEvent => {
  const raw = JSON.stringify(message);
  const rpc: FrameEvent['rpc'] = 'method' in message ? ('id' in message ? 'request' : 'notification') : 'error' in message ? 'error' : 'response';
  return { session: 's1', seq: ++seq, ts: seq, kind: 'frame', dir, raw, size: raw.length, rpc, method: message.method as string | undefined, id: message.id as string | number | undefined, ...(view === undefined ? {} : { view }) };
};
const ready = (view: string) => frame(view, 'out', { jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: HTML } });
const init = (view: string, id: number | string = 0) => frame(view, 'in', { jsonrpc: '2.0', id, method: 'ui/initialize', params: {} });
const answer = (view: string, id: number | string = 0) => frame(view, 'out', { jsonrpc: '2.0', id, result: {} });
const call = (view: string, id: number | string) => frame(view, 'in', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo' } });

describe('viewFrameFindings', () => {
  it('finds nothing in a view that initializes first, nor in the server\'s own frames', () => {
    const events = [ready('v1'), init('v1'), frame('v1', 'in', { jsonrpc: '2.0', id: 'p', method: 'ping' }), answer('v1'), call('v1', 1), frame(undefined, 'in', { jsonrpc: '2.0', id: 9, method: 'tools/call' })];
    expect(viewFrameFindings(events)).toEqual([]);
  });

  it('names a request sent before ui/initialize', () => {
    const early = call('v1', 'early-1');
    const findings = viewFrameFindings([ready('v1'), early, init('v1'), answer('v1')], { v1: 'ui://apps/early' });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'warning', rule: 'app-view-early-request', about: { kind: 'frame', seq: early.seq, method: 'tools/call' }, message: `View v1 (ui://apps/early) sent tools/call #${early.seq} before sending ui/initialize.` });
  });

  it('names a request sent before the host answered ui/initialize, and counts the others', () => {
    const start = init('v2');
    const first = call('v2', 1);
    const findings = viewFrameFindings([start, first, call('v2', 2), call('v2', 3), answer('v2'), call('v2', 4)]);
    expect(findings.map((f) => f.message)).toEqual([`View v2 sent tools/call #${first.seq}, and 2 more requests after it, before the host answered its ui/initialize (#${start.seq}).`]);
  });

  it('names a view that was given its HTML and never initialized', () => {
    const given = ready('v3');
    const findings = viewFrameFindings([given, frame('v3', 'in', { jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: {} }), ready('v4'), init('v4')]);
    expect(findings).toEqual([expect.objectContaining({ rule: 'app-view-never-initialized', about: { kind: 'frame', seq: given.seq, method: 'ui/notifications/sandbox-resource-ready' }, message: `View v3 was given its HTML (ui/notifications/sandbox-resource-ready #${given.seq}) but never sent ui/initialize, so the host cannot send it the tool input or result.` })]);
  });
});

describe('specFindingsOf with view frames (not the server\'s)', () => {
  const spec = (of: number): SpecEvent => ({ session: 's1', seq: ++seq, ts: seq, kind: 'spec', of, version: '2025-11-25', schema: 'ListToolsResult', issues: ['result.tools: required'] });
  it('leaves a view\'s frame out, and does not pair the server\'s response with a view\'s request of the same id', () => {
    const request = frame(undefined, 'out', { jsonrpc: '2.0', id: 7, method: 'tools/list' });
    const teardown = frame('v1', 'out', { jsonrpc: '2.0', id: 7, method: 'ui/resource-teardown', params: {} });
    const response = frame(undefined, 'in', { jsonrpc: '2.0', id: 7, result: {} });
    const fromView = frame('v1', 'in', { jsonrpc: '2.0', id: 3, method: 'ui/message', params: {} });
    const events: TraceEvent[] = [request, teardown, response, fromView, spec(response.seq), spec(fromView.seq)];
    expect(specFindingsOf(events).map((f) => f.about)).toEqual([{ kind: 'frame', seq: response.seq, method: 'tools/list' }]);
  });
});

// ---- the fixture -------------------------------------------------------------------------------

describe('the apps fixture over stdio', () => {
  const client = new Client({ name: 'apps-doctor-test', version: '1.0.0' });
  afterAll(() => client.close());

  it('has each planted view problem found, and no other', async () => {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['e2e/fixtures/apps-server.mjs'], stderr: 'ignore' }));
    const { tools } = await client.listTools();
    const { resources } = await client.listResources();
    const uris = [...new Set(tools.map((t) => (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri ?? t._meta?.['ui/resourceUri']).filter((u): u is string => typeof u === 'string' && u.startsWith('ui://')))];
    const views: Record<string, ViewFetch> = {};
    for (const uri of uris) views[uri] = await client.readResource({ uri }).then((result) => ({ result }), (error: Error) => ({ error: { message: error.message } }));
    const found = appFindings({ server: { name: 'apps-fixture' }, lists: { tools: list(tools), resources: list(resources) }, views });
    const named = found.map((f) => `${f.rule} ${f.about.kind === 'tool' || f.about.kind === 'resource' ? f.about.name : ''}`).sort();
    expect(named).toEqual([
      'app-csp-malformed ui://apps/bad-csp',
      'app-csp-too-wide ui://apps/wide-csp',
      'app-view-mime ui://apps/wrong-mime',
      'app-view-missing ui://apps/missing',
      'app-view-unlisted ui://apps/early',
      'app-view-uri-deprecated old-style-link',
      'app-view-uri-scheme not-ui-link',
    ]);
    const malformed = found.find((f) => f.rule === 'app-csp-malformed');
    for (const entry of ['"https://api.example.com; script-src *"', `"'unsafe-eval'"`, '"https://cdn.example.com/lib.js"', '"cdn example.com"']) expect(malformed?.message).toContain(entry);
  }, 90_000);
});
