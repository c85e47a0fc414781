/**
 * MCP Apps metadata (issue 24): which view a tool links, who may call it, and what a view's
 * `resources/read` answer holds — read from the values as sent, never trusted. Pure and
 * isomorphic (the page and the proxy both use it).
 *
 * Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
 * (UI Resource Format, Resource Discovery, Visibility); the draft adds the `resources/list` entry's
 * `_meta.ui` as a fallback for the content item's.
 */

/** The extension's identifier, under `capabilities.extensions` (SEP-1724). */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The one MIME type a view may have, compared exactly. */
export const APP_MIME = 'text/html;profile=mcp-app';
/** The deprecated flat key of a tool's view (`_meta["ui/resourceUri"]`). */
export const FLAT_URI_KEY = 'ui/resourceUri';

/** A view's CSP declaration as the spec types it (`_meta.ui.csp`); each entry an origin. */
export interface McpUiResourceCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** Browser features a view asks for (`_meta.ui.permissions`); each maps to a Permission Policy feature. */
export interface McpUiResourcePermissions {
  camera?: object;
  microphone?: object;
  geolocation?: object;
  clipboardWrite?: object;
}
export const PERMISSION_KEYS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;

export type Visibility = 'model' | 'app';
const DEFAULT_VISIBILITY: readonly Visibility[] = ['model', 'app'];

/** The view a tool links: a `ui://` URI, or what was there instead and why it is not one. */
export type ViewLink =
  | { ok: true; uri: string; deprecated: boolean; conflicting?: string }
  | { ok: false; value: string; deprecated: boolean; problem: string };

type Obj = Record<string, unknown>;
const isRecord = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const uiOf = (meta: unknown): Obj | undefined => (isRecord(meta) && isRecord(meta.ui) ? meta.ui : undefined);

/**
 * The view a tool links: `_meta.ui.resourceUri`, else the deprecated `_meta["ui/resourceUri"]`
 * (`deprecated` is set only then: the SDK's registerAppTool writes both keys, as it should for
 * older hosts). `conflicting`: the flat key names another URI (the nested one wins, as in the SDK).
 * Undefined when the tool links no view.
 */
export function viewUriOf(tool: unknown): ViewLink | undefined {
  const meta = isRecord(tool) ? tool._meta : undefined;
  const nested = uiOf(meta)?.resourceUri;
  const flat = isRecord(meta) ? meta[FLAT_URI_KEY] : undefined;
  const deprecated = nested === undefined && flat !== undefined;
  const value = nested ?? flat;
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return { ok: false, value: JSON.stringify(value) ?? String(value), deprecated, problem: `is ${value === null ? 'null' : typeof value}, not a ui:// URI` };
  if (!value.startsWith('ui://') || value.length === 'ui://'.length) return { ok: false, value, deprecated, problem: 'is not a ui:// URI' };
  const conflicting = typeof flat === 'string' && nested !== undefined && flat !== value ? flat : undefined;
  return { ok: true, uri: value, deprecated, ...(conflicting === undefined ? {} : { conflicting }) };
}

/**
 * Who may call a tool (`_meta.ui.visibility`, default both). Unknown entries are dropped; a value
 * that is not an array, or leaves nothing, means the default, and `problem` says what was wrong.
 */
export function visibilityOf(tool: unknown): { visibility: Visibility[]; problem?: string } {
  const value = uiOf(isRecord(tool) ? tool._meta : undefined)?.visibility;
  if (value === undefined) return { visibility: [...DEFAULT_VISIBILITY] };
  if (!Array.isArray(value)) return { visibility: [...DEFAULT_VISIBILITY], problem: `visibility is ${JSON.stringify(value)}, not an array of "model" and "app"` };
  const known = [...new Set(value.filter((v): v is Visibility => v === 'model' || v === 'app'))];
  const unknown = value.filter((v) => v !== 'model' && v !== 'app');
  if (known.length === 0) return { visibility: [...DEFAULT_VISIBILITY], problem: `visibility ${JSON.stringify(value)} names neither "model" nor "app", so the default (both) applies` };
  return unknown.length === 0 ? { visibility: known } : { visibility: known, problem: `visibility has ${unknown.map((v) => JSON.stringify(v)).join(', ')}, which the spec does not define (ignored)` };
}

/** A view may call the tool (`"app"` in its visibility): the host refuses other calls from views. */
export function appMayCall(tool: unknown): boolean {
  return visibilityOf(tool).visibility.includes('app');
}

/** The model may see and call the tool (`"model"` in its visibility): hosts leave other tools out of the model's list. */
export function modelMaySee(tool: unknown): boolean {
  return visibilityOf(tool).visibility.includes('model');
}

/** What a view's `resources/read` gave: its HTML and the `_meta.ui` that decides how it is sandboxed. */
export interface ViewContent {
  html: string;
  /** The CSP declaration as sent (lib/apps/csp.ts checks it); undefined when none was declared. */
  csp?: unknown;
  permissions: McpUiResourcePermissions;
  prefersBorder?: boolean;
  domain?: string;
}

export type ViewContentProblem = 'NO_CONTENT' | 'WRONG_MIME' | 'BAD_CONTENT';
type Failure = { ok: false; code: ViewContentProblem; problem: string };
export type ViewContentOutcome = { ok: true; view: ViewContent } | Failure;

const fail = (code: ViewContentProblem, problem: string): Failure => ({ ok: false, code, problem });

/**
 * The view `uri` out of a `resources/read` result: the content item for that URI, of MIME type
 * text/html;profile=mcp-app exactly, its `text` or its base64 `blob` (decoded as UTF-8), with the
 * item's `_meta.ui`, else the `resources/list` entry's (`listed`, the draft's fallback).
 */
export function viewContentOf(readResult: unknown, uri: string, listed?: unknown): ViewContentOutcome {
  const contents = isRecord(readResult) ? readResult.contents : undefined;
  if (!Array.isArray(contents) || contents.length === 0) return fail('NO_CONTENT', `The resources/read answer for ${uri} has no contents`);
  const item = contents.find((c) => isRecord(c) && c.uri === uri);
  if (!isRecord(item)) {
    const others = contents.map((c) => (isRecord(c) && typeof c.uri === 'string' ? c.uri : '(no uri)')).join(', ');
    return fail('NO_CONTENT', `The resources/read answer for ${uri} has no content for that URI (it has ${others})`);
  }
  if (item.mimeType !== APP_MIME) {
    const sent = typeof item.mimeType === 'string' ? item.mimeType : 'without a MIME type';
    return fail('WRONG_MIME', `The resource ${uri} is ${sent}, not ${APP_MIME}`);
  }
  const html = htmlOf(item, uri);
  if (!html.ok) return html;
  const ui = uiOf(item._meta) ?? uiOf(isRecord(listed) ? listed._meta : undefined) ?? {};
  return { ok: true, view: { html: html.text, ...(ui.csp === undefined ? {} : { csp: ui.csp }), permissions: permissionsOf(ui.permissions), ...(typeof ui.prefersBorder === 'boolean' ? { prefersBorder: ui.prefersBorder } : {}), ...(typeof ui.domain === 'string' ? { domain: ui.domain } : {}) } };
}

/** The item's `text`, or its `blob` decoded (base64, then UTF-8); an empty page is a problem too. */
function htmlOf(item: Obj, uri: string): { ok: true; text: string } | Failure {
  let text: string;
  if (typeof item.text === 'string') text = item.text;
  else if (typeof item.blob === 'string') {
    const decoded = decodeBase64Utf8(item.blob);
    if (decoded === undefined) return fail('BAD_CONTENT', `The resource ${uri} has a blob that is not base64-encoded UTF-8`);
    text = decoded;
  } else return fail('BAD_CONTENT', `The resource ${uri} has neither text nor blob`);
  if (text.trim() === '') return fail('BAD_CONTENT', `The resource ${uri} is empty`);
  return { ok: true, text };
}

/** Base64 (standard alphabet, padding optional) to UTF-8 text; undefined when it is neither. */
export function decodeBase64Utf8(blob: string): string | undefined {
  try {
    const binary = atob(blob.replace(/\s+/g, ''));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The permissions the spec defines that are asked for (an object; `true` is read as one too). */
export function permissionsOf(value: unknown): McpUiResourcePermissions {
  const out: McpUiResourcePermissions = {};
  if (!isRecord(value)) return out;
  for (const key of PERMISSION_KEYS) if (isRecord(value[key]) || value[key] === true) out[key] = {};
  return out;
}
