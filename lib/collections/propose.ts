/**
 * Assertions proposed from an actual answer (issue 27, "Save as test"): what a person would write
 * to pin this answer down, and nothing that would fail on the next run of the same server.
 *
 * Left out, so that a proposed test passes again against the same server:
 * - the locations `--verify` ignores by default (lib/headless/verify.ts DEFAULT_IGNORES: clocks,
 *   task, request and session ids), the same rules read the same way;
 * - values that look volatile wherever they are: ISO 8601 timestamps, UUIDs, and numbers that
 *   read as epoch milliseconds (a clock a server put under another name);
 * - `_meta` (the protocol's side channel; it carries ids and tokens more often than data).
 * Long text is pinned by a stable head (`textContains`), a long string elsewhere by its type.
 */
import { formatPath, matches, parsePath, type JsonPath, type PathKey } from '../json/json-path.ts';
import { DEFAULT_IGNORES } from '../headless/verify.ts';
import { errorKindOf } from './assertions.ts';
import type { Assertion, CollectionCall, PortOutcome } from './types.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Text up to this long is pinned whole (`equals`); longer text by its head. */
const SHORT_TEXT = 200;
/** The head of a long text that `textContains` keeps. */
const HEAD = 80;
/** A head shorter than this says too little to be worth a check. */
const MIN_HEAD = 12;
/** At most this many leaf values are pinned per answer: a list of 500 items is not a test anyone reads. */
const MAX_LEAVES = 20;
/** Below this depth leaves are not looked for. */
const MAX_DEPTH = 8;

const ISO_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** 2001-09-09 to 2286-11-20 in epoch milliseconds. */
const EPOCH_MS = [1e12, 1e13] as const;

let ignores: JsonPath[] | undefined;
function ignoreRules(): JsonPath[] {
  ignores ??= DEFAULT_IGNORES.map((r) => parsePath(r.path)).flatMap((p) => (p.ok ? [p.path] : []));
  return ignores;
}

/** Whether a value at a location would differ on the next run: `--verify`'s rules, `_meta`, and volatile-looking values. */
export function isVolatile(keys: readonly PathKey[], value: unknown): boolean {
  if (keys.includes('_meta')) return true;
  if (ignoreRules().some((rule) => matches(rule, keys))) return true;
  if (typeof value === 'string') return ISO_TIME.test(value) || UUID.test(value);
  return typeof value === 'number' && Number.isInteger(value) && value >= EPOCH_MS[0] && value < EPOCH_MS[1];
}

/** The head of a long text up to the first volatile-looking part, cut at a word: `textContains` of it passes again. */
export function stableHead(text: string): string | undefined {
  const volatile = [ISO_TIME.exec(text)?.index, UUID.exec(text)?.index].filter((i): i is number => i !== undefined);
  let head = text.slice(0, Math.min(HEAD, ...volatile));
  if (head.length < text.length) {
    const space = head.lastIndexOf(' ');
    if (space >= MIN_HEAD) head = head.slice(0, space);
  }
  head = head.trimEnd();
  return head.length >= MIN_HEAD || head === text ? head : undefined;
}

/** A generous limit: ten times the actual duration, at least a second, rounded up to a round number. */
export function generousDuration(ms: number): number {
  const limit = Math.max(1000, 10 * ms);
  const step = limit < 10_000 ? 500 : limit < 100_000 ? 5_000 : 50_000;
  return Math.ceil(limit / step) * step;
}

/**
 * Assertions for a call from its actual answer: whether it is an error, the text contents, the
 * `structuredContent` leaves by path (or, for other requests, the result's), `outputSchema` when the
 * tool has one, and a generous `durationUnderMs`. An answer Loupe never got proposes nothing.
 */
export function proposeAssertions(call: CollectionCall, outcome: PortOutcome, options: { outputSchema?: unknown } = {}): Assertion[] {
  if (!outcome.ok && typeof outcome.error?.code !== 'number') return [];
  const out: Assertion[] = [{ isError: errorKindOf(outcome) !== undefined }];
  if (!outcome.ok) {
    out.push({ path: '$.code', equals: outcome.error!.code });
  } else if (isObject(outcome.result)) {
    const result = outcome.result;
    if (call.kind === 'tool') {
      out.push(...contentAssertions(result.content, ['content']));
      if (result.structuredContent !== undefined) out.push(...leafAssertions(result.structuredContent, ['structuredContent']));
      if (options.outputSchema !== undefined && result.structuredContent !== undefined && result.isError !== true) out.push({ outputSchema: true });
    } else if (call.kind === 'resource') {
      out.push(...resourceAssertions(result.contents));
    } else if (call.kind === 'prompt') {
      out.push(...promptAssertions(result.messages));
    } else {
      out.push(...leafAssertions(result, []));
    }
  }
  out.push({ durationUnderMs: generousDuration(outcome.durationMs) });
  return out;
}

/** Text, pinned whole when short, by its head when long; nothing when volatile all through. */
function textAssertion(text: string, keys: PathKey[]): Assertion | undefined {
  if (text.length <= SHORT_TEXT && !isVolatile(keys, text)) return { path: formatPath(keys), equals: text };
  const head = stableHead(text);
  return head !== undefined && head !== '' ? { textContains: head } : undefined;
}

function contentAssertions(content: unknown, keys: PathKey[]): Assertion[] {
  if (!Array.isArray(content)) return [];
  return content.slice(0, MAX_LEAVES).flatMap((item, i) => itemAssertions(item, [...keys, i]));
}

/** One content block (text, image, audio, resource link…): its type, its text, its MIME type. */
function itemAssertions(item: unknown, keys: PathKey[]): Assertion[] {
  if (!isObject(item)) return [];
  const out: Assertion[] = [];
  if (typeof item.type === 'string') out.push({ path: formatPath([...keys, 'type']), equals: item.type });
  if (typeof item.text === 'string') {
    const text = textAssertion(item.text, [...keys, 'text']);
    if (text) out.push(text);
  }
  if (typeof item.mimeType === 'string') out.push({ path: formatPath([...keys, 'mimeType']), equals: item.mimeType });
  return out;
}

function resourceAssertions(contents: unknown): Assertion[] {
  if (!Array.isArray(contents)) return [];
  const out: Assertion[] = [];
  for (const [i, item] of contents.slice(0, MAX_LEAVES).entries()) {
    if (!isObject(item)) continue;
    for (const key of ['uri', 'mimeType'] as const) if (typeof item[key] === 'string') out.push({ path: formatPath(['contents', i, key]), equals: item[key] });
    if (typeof item.text === 'string') {
      const text = textAssertion(item.text, ['contents', i, 'text']);
      if (text) out.push(text);
    }
    if (typeof item.blob === 'string') out.push({ path: formatPath(['contents', i, 'blob']), type: 'string' });
  }
  return out;
}

function promptAssertions(messages: unknown): Assertion[] {
  if (!Array.isArray(messages)) return [];
  const out: Assertion[] = [];
  for (const [i, message] of messages.slice(0, MAX_LEAVES).entries()) {
    if (!isObject(message)) continue;
    if (typeof message.role === 'string') out.push({ path: formatPath(['messages', i, 'role']), equals: message.role });
    out.push(...(Array.isArray(message.content) ? contentAssertions(message.content, ['messages', i, 'content']) : itemAssertions(message.content, ['messages', i, 'content'])));
  }
  return out;
}

/** The leaves of a value by path (`equals` for stable ones, `type` for long strings), up to MAX_LEAVES. */
function leafAssertions(value: unknown, at: PathKey[]): Assertion[] {
  const out: Assertion[] = [];
  const stack: [unknown, PathKey[]][] = [[value, at]];
  while (stack.length > 0 && out.length < MAX_LEAVES) {
    const [v, keys] = stack.pop()!;
    if (isVolatile(keys, v)) continue;
    if (Array.isArray(v) || isObject(v)) {
      const entries: [PathKey, unknown][] = (Array.isArray(v) ? v.map((x, i): [PathKey, unknown] => [i, x]) : Object.entries(v)).slice(0, MAX_LEAVES);
      if (entries.length === 0 || keys.length - at.length >= MAX_DEPTH) out.push({ path: formatPath(keys), equals: v });
      else for (let i = entries.length - 1; i >= 0; i -= 1) stack.push([entries[i][1], [...keys, entries[i][0]]]);
      continue;
    }
    if (typeof v === 'string' && v.length > SHORT_TEXT) out.push({ path: formatPath(keys), type: 'string' });
    else out.push({ path: formatPath(keys), equals: v });
  }
  return out;
}

/** The method and params of a request the page saw (a History row, a Result) as a call of a collection. */
export function callFromHistory(method: string, params: unknown, name?: string): CollectionCall {
  const p = isObject(params) ? withoutProgressToken(params) : {};
  const args = isObject(p.arguments) ? p.arguments : undefined;
  if (method === 'tools/call' && typeof p.name === 'string') return { name: name ?? p.name, kind: 'tool', target: p.name, arguments: args ?? {} };
  if (method === 'resources/read' && typeof p.uri === 'string') return { name: name ?? `read ${p.uri}`, kind: 'resource', target: p.uri };
  if (method === 'prompts/get' && typeof p.name === 'string') return { name: name ?? `prompt ${p.name}`, kind: 'prompt', target: p.name, ...(args ? { arguments: args } : {}) };
  return { name: name ?? method, kind: 'request', target: method, ...(Object.keys(p).length > 0 ? { params: p } : {}) };
}

/** A per-run progress token is not part of what a test sends (a new one goes with each run). */
function withoutProgressToken(params: Json): Json {
  if (!isObject(params._meta) || params._meta.progressToken === undefined) return params;
  const { progressToken: _token, ...meta } = params._meta;
  const { _meta: _old, ...rest } = params;
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}

/** `name`, or `name 2`, `name 3` … where the name is taken (a call's name is unique in its collection). */
export function uniqueName(name: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(name)) return name;
  let n = 2;
  while (used.has(`${name} ${n}`)) n += 1;
  return `${name} ${n}`;
}
