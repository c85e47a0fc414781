/**
 * MCP Apps metadata (lib/apps/meta.ts): a tool's view link in both spellings, visibility with its
 * default and its malformed forms, and a view's resources/read answer — MIME type compared
 * exactly, text or base64 blob, the content item's `_meta.ui` before the listing's.
 */
import { describe, expect, it } from 'vitest';
import { APP_MIME, APPS_EXTENSION, appMayCall, decodeBase64Utf8, modelMaySee, viewContentOf, viewUriOf, visibilityOf } from './meta.ts';

const tool = (meta: unknown) => ({ name: 't', inputSchema: { type: 'object' }, _meta: meta });
const read = (...contents: unknown[]) => ({ contents });
const html = '<!DOCTYPE html><html><body>é ✓</body></html>';
/** Base64 of the UTF-8 bytes, as a server would send a blob. */
const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

describe('constants', () => {
  it('are the spec\'s identifiers', () => {
    expect(APPS_EXTENSION).toBe('io.modelcontextprotocol/ui');
    expect(APP_MIME).toBe('text/html;profile=mcp-app');
  });
});

describe('viewUriOf', () => {
  it('reads _meta.ui.resourceUri', () => {
    expect(viewUriOf(tool({ ui: { resourceUri: 'ui://w/view' } }))).toEqual({ ok: true, uri: 'ui://w/view', deprecated: false });
  });
  it('falls back to the deprecated flat key, and says so', () => {
    expect(viewUriOf(tool({ 'ui/resourceUri': 'ui://w/view' }))).toEqual({ ok: true, uri: 'ui://w/view', deprecated: true });
  });
  it('does not call both keys (what the SDK\'s registerAppTool writes) deprecated', () => {
    expect(viewUriOf(tool({ ui: { resourceUri: 'ui://w/view' }, 'ui/resourceUri': 'ui://w/view' }))).toEqual({ ok: true, uri: 'ui://w/view', deprecated: false });
  });
  it('prefers the nested key when the two differ, and names the other', () => {
    expect(viewUriOf(tool({ ui: { resourceUri: 'ui://w/a' }, 'ui/resourceUri': 'ui://w/b' }))).toEqual({ ok: true, uri: 'ui://w/a', deprecated: false, conflicting: 'ui://w/b' });
  });
  it('reports a URI that is not ui://, or not a string, instead of returning it', () => {
    expect(viewUriOf(tool({ ui: { resourceUri: 'https://example.com/view' } }))).toEqual({ ok: false, value: 'https://example.com/view', deprecated: false, problem: 'is not a ui:// URI' });
    expect(viewUriOf(tool({ ui: { resourceUri: 'ui://' } }))).toMatchObject({ ok: false, problem: 'is not a ui:// URI' });
    expect(viewUriOf(tool({ 'ui/resourceUri': 42 }))).toEqual({ ok: false, value: '42', deprecated: true, problem: 'is number, not a ui:// URI' });
  });
  it('is undefined for a tool without a view', () => {
    expect(viewUriOf(tool(undefined))).toBeUndefined();
    expect(viewUriOf(tool({ ui: { visibility: ['app'] } }))).toBeUndefined();
    expect(viewUriOf('not a tool')).toBeUndefined();
  });
});

describe('visibilityOf', () => {
  it('defaults to model and app', () => {
    expect(visibilityOf(tool(undefined))).toEqual({ visibility: ['model', 'app'] });
    expect(appMayCall(tool(undefined)) && modelMaySee(tool(undefined))).toBe(true);
  });
  it('keeps what is declared', () => {
    expect(visibilityOf(tool({ ui: { visibility: ['app'] } }))).toEqual({ visibility: ['app'] });
    expect(appMayCall(tool({ ui: { visibility: ['app'] } }))).toBe(true);
    expect(modelMaySee(tool({ ui: { visibility: ['app'] } }))).toBe(false);
    expect(appMayCall(tool({ ui: { visibility: ['model'] } }))).toBe(false);
  });
  it('drops unknown entries, and falls back to the default when nothing is left', () => {
    expect(visibilityOf(tool({ ui: { visibility: ['model', 'agent'] } }))).toEqual({ visibility: ['model'], problem: 'visibility has "agent", which the spec does not define (ignored)' });
    expect(visibilityOf(tool({ ui: { visibility: ['modal'] } }))).toEqual({ visibility: ['model', 'app'], problem: 'visibility ["modal"] names neither "model" nor "app", so the default (both) applies' });
    expect(visibilityOf(tool({ ui: { visibility: [] } }))).toMatchObject({ visibility: ['model', 'app'] });
    expect(visibilityOf(tool({ ui: { visibility: 'app' } }))).toEqual({ visibility: ['model', 'app'], problem: 'visibility is "app", not an array of "model" and "app"' });
  });
});

describe('viewContentOf', () => {
  const uri = 'ui://w/view';
  it('returns the text of the item for the URI, with its _meta.ui', () => {
    const meta = { ui: { csp: { connectDomains: ['https://a.com'] }, permissions: { camera: {}, usb: {} }, prefersBorder: true, domain: 'x.example.com' } };
    const out = viewContentOf(read({ uri: 'ui://w/other', mimeType: APP_MIME, text: 'no' }, { uri, mimeType: APP_MIME, text: html, _meta: meta }), uri);
    expect(out).toEqual({ ok: true, view: { html, csp: { connectDomains: ['https://a.com'] }, permissions: { camera: {} }, prefersBorder: true, domain: 'x.example.com' } });
  });
  it('decodes a base64 blob as UTF-8', () => {
    expect(viewContentOf(read({ uri, mimeType: APP_MIME, blob: base64(html) }), uri)).toEqual({ ok: true, view: { html, permissions: {} } });
  });
  it('takes the listing\'s _meta.ui when the item has none, and the item\'s over the listing\'s', () => {
    const listed = { uri, name: 'v', _meta: { ui: { csp: { resourceDomains: ['https://l.com'] } } } };
    expect(viewContentOf(read({ uri, mimeType: APP_MIME, text: html }), uri, listed)).toMatchObject({ ok: true, view: { csp: { resourceDomains: ['https://l.com'] } } });
    expect(viewContentOf(read({ uri, mimeType: APP_MIME, text: html, _meta: { ui: { csp: {} } } }), uri, listed)).toMatchObject({ ok: true, view: { csp: {} } });
  });
  it('refuses another MIME type, in plain words', () => {
    expect(viewContentOf(read({ uri, mimeType: 'text/html', text: html }), uri)).toEqual({ ok: false, code: 'WRONG_MIME', problem: 'The resource ui://w/view is text/html, not text/html;profile=mcp-app' });
    expect(viewContentOf(read({ uri, mimeType: 'text/html; profile=mcp-app', text: html }), uri)).toMatchObject({ ok: false, code: 'WRONG_MIME' });
    expect(viewContentOf(read({ uri, text: html }), uri)).toEqual({ ok: false, code: 'WRONG_MIME', problem: 'The resource ui://w/view is without a MIME type, not text/html;profile=mcp-app' });
  });
  it('names what is missing or unreadable', () => {
    expect(viewContentOf({}, uri)).toEqual({ ok: false, code: 'NO_CONTENT', problem: 'The resources/read answer for ui://w/view has no contents' });
    expect(viewContentOf(read({ uri: 'ui://w/else', mimeType: APP_MIME, text: html }), uri)).toEqual({ ok: false, code: 'NO_CONTENT', problem: 'The resources/read answer for ui://w/view has no content for that URI (it has ui://w/else)' });
    expect(viewContentOf(read({ uri, mimeType: APP_MIME }), uri)).toEqual({ ok: false, code: 'BAD_CONTENT', problem: 'The resource ui://w/view has neither text nor blob' });
    expect(viewContentOf(read({ uri, mimeType: APP_MIME, text: '  \n' }), uri)).toEqual({ ok: false, code: 'BAD_CONTENT', problem: 'The resource ui://w/view is empty' });
    expect(viewContentOf(read({ uri, mimeType: APP_MIME, blob: 'not base64!' }), uri)).toEqual({ ok: false, code: 'BAD_CONTENT', problem: 'The resource ui://w/view has a blob that is not base64-encoded UTF-8' });
    // Valid base64 of bytes that are not UTF-8 (a lone 0xff).
    expect(viewContentOf(read({ uri, mimeType: APP_MIME, blob: btoa('\xff<html>') }), uri)).toMatchObject({ ok: false, code: 'BAD_CONTENT' });
  });
});

describe('decodeBase64Utf8', () => {
  it('decodes, with or without padding and line breaks', () => {
    expect(decodeBase64Utf8(base64('é ✓ 𝄞'))).toBe('é ✓ 𝄞');
    expect(decodeBase64Utf8('aGk')).toBe('hi');
    expect(decodeBase64Utf8('aG\nk=')).toBe('hi');
  });
});
