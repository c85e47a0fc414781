/**
 * A collection file read (issue 27): JSONC of `{ "collections": [...] }`, or a workspace file with
 * `"x-mcp-loupe": { "collections": [...] }`. What is wrong is said with where it is, in the file's
 * own terms (`collections[0].calls[2].assert[1]: …`), so a person can find it in their editor; what
 * is only odd (a key Loupe does not know) is a note, and the file still loads.
 *
 * Assertions are checked by hand rather than by the zod union of schema.ts: a union's error lists
 * every branch it tried, where a person needs one sentence about the one they meant.
 */
import type { z } from 'zod';
import { parseJsonc } from '../json/jsonc.ts';
import { parsePath } from '../json/json-path.ts';
import { readPattern } from '../rules/match.ts';
import { AssertionSchema, CollectionCallSchema, CollectionSchema, type Assertion, type Collection, type CollectionCall } from './schema.ts';

export type CollectionsRead = { ok: true; collections: Collection[]; notes: string[] } | { ok: false; error: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const quoted = (s: string): string => JSON.stringify(s);

/** The workspace file's key (lib/workspace/types.ts EXTRAS_KEY; not imported, to keep this module below the workspace). */
const EXTRAS_KEY = 'x-mcp-loupe';

/** A collection file's text → its collections, or the one sentence saying what is wrong and where. */
export function readCollectionFile(text: string): CollectionsRead {
  const parsed = parseJsonc(text);
  if (!parsed.ok) return parsed;
  const top = parsed.value;
  if (isObject(top) && top.collections !== undefined) return readCollections(top.collections, 'collections');
  if (isObject(top) && isObject(top[EXTRAS_KEY]) && top[EXTRAS_KEY].collections !== undefined) {
    return readCollections(top[EXTRAS_KEY].collections, `${EXTRAS_KEY}.collections`);
  }
  return { ok: false, error: `The file has no "collections" list: write { "collections": [ … ] }, or put the list under "${EXTRAS_KEY}" of a workspace file.` };
}

/** A parsed `collections` value (`where` is how the file names it) → its collections. The workspace reads its block with this. */
export function readCollections(value: unknown, where = 'collections'): CollectionsRead {
  if (!Array.isArray(value)) return { ok: false, error: `${where}: is not a list of collections.` };
  const notes: string[] = [];
  const collections: Collection[] = [];
  for (const [i, item] of value.entries()) {
    const read = readCollection(item, `${where}[${i}]`, notes);
    if (!read.ok) return read;
    if (collections.some((c) => c.name === read.value.name)) return { ok: false, error: `${where}[${i}].name: the collection name ${quoted(read.value.name)} is used twice; each collection needs its own.` };
    collections.push(read.value);
  }
  return { ok: true, collections, notes };
}

type Read<T> = { ok: true; value: T } | { ok: false; error: string };

const COLLECTION_KEYS = new Set(['name', 'server', 'variables', 'calls']);
const CALL_KEYS = new Set(['name', 'kind', 'target', 'arguments', 'params', 'assert', 'extract', 'timeoutMs']);

function readCollection(item: unknown, where: string, notes: string[]): Read<Collection> {
  if (!isObject(item)) return { ok: false, error: `${where}: is not an object with "name" and "calls".` };
  const head = zodRead(CollectionSchema.omit({ calls: true }), omit(item, 'calls'), where);
  if (!head.ok) return head;
  noteUnknownKeys(item, COLLECTION_KEYS, where, notes);
  if (!Array.isArray(item.calls)) return { ok: false, error: `${where}.calls: ${item.calls === undefined ? 'is missing' : 'is not a list'}; a collection is a list of calls.` };
  const calls: CollectionCall[] = [];
  for (const [i, raw] of item.calls.entries()) {
    const call = readCall(raw, `${where}.calls[${i}]`, notes);
    if (!call.ok) return call;
    if (calls.some((c) => c.name === call.value.name)) return { ok: false, error: `${where}.calls[${i}].name: the call name ${quoted(call.value.name)} is used twice in collection ${quoted(head.value.name)}; each call needs its own (it names the test in reports).` };
    calls.push(call.value);
  }
  return { ok: true, value: { ...head.value, calls } };
}

function readCall(item: unknown, where: string, notes: string[]): Read<CollectionCall> {
  if (!isObject(item)) return { ok: false, error: `${where}: is not an object with "name", "kind" and "target".` };
  const head = zodRead(CollectionCallSchema.omit({ assert: true }), omit(item, 'assert'), where);
  if (!head.ok) return head;
  noteUnknownKeys(item, CALL_KEYS, where, notes);
  if (head.value.params !== undefined && head.value.kind !== 'request') notes.push(`${where}.params: is for "kind": "request"; a ${head.value.kind} call sends its "arguments" (the params are ignored).`);
  for (const [name, path] of Object.entries(head.value.extract ?? {})) {
    const parsed = parsePath(path);
    if (!parsed.ok) return { ok: false, error: `${where}.extract.${name}: ${parsed.error}` };
  }
  if (item.assert === undefined) return { ok: true, value: head.value };
  if (!Array.isArray(item.assert)) return { ok: false, error: `${where}.assert: is not a list of assertions.` };
  const assert: Assertion[] = [];
  for (const [i, raw] of item.assert.entries()) {
    const read = readAssertion(raw, `${where}.assert[${i}]`);
    if (!read.ok) return read;
    assert.push(read.value);
  }
  return { ok: true, value: { ...head.value, assert } };
}

/** The key that says what an assertion checks; `path` needs one of these beside it. */
const KINDS = ['isError', 'outputSchema', 'textContains', 'durationUnderMs', 'notification', 'refusedByRule', 'path'] as const;
const PATH_CHECKS = ['equals', 'matches', 'type', 'exists'] as const;
const KIND_LIST = 'isError, path with equals / matches / type / exists, outputSchema, textContains, durationUnderMs, notification, refusedByRule';

/** One assertion: which kind it is, then that kind's shape, its path and its pattern. */
export function readAssertion(raw: unknown, where: string): Read<Assertion> {
  if (!isObject(raw)) return { ok: false, error: `${where}: is not an object; an assertion is one of ${KIND_LIST}.` };
  const kinds = KINDS.filter((k) => Object.hasOwn(raw, k));
  if (kinds.length === 0) return { ok: false, error: `${where}: says nothing to check (its keys: ${Object.keys(raw).map(quoted).join(', ') || 'none'}); an assertion is one of ${KIND_LIST}.` };
  if (kinds.length > 1) return { ok: false, error: `${where}: mixes ${kinds.map(quoted).join(' and ')}; write each check as an assertion of its own.` };
  const kind = kinds[0];
  let check: string = kind;
  if (kind === 'path') {
    const checks = PATH_CHECKS.filter((k) => Object.hasOwn(raw, k));
    if (checks.length !== 1) return { ok: false, error: `${where}: a "path" needs exactly one of ${PATH_CHECKS.map(quoted).join(', ')} beside it${checks.length > 1 ? `, not ${checks.map(quoted).join(' and ')}` : ''}.` };
    check = checks[0];
    if (typeof raw.path !== 'string') return { ok: false, error: `${where}.path: is not a string.` };
    const path = parsePath(raw.path);
    if (!path.ok) return { ok: false, error: `${where}.path: ${path.error}` };
    if (typeof raw.matches === 'string') {
      const pattern = readPattern(raw.matches);
      if (!pattern.ok) return { ok: false, error: `${where}.matches: ${quoted(raw.matches)} ${pattern.problem}` };
    }
  }
  const extra = Object.keys(raw).filter((k) => k !== kind && !(kind === 'path' && (PATH_CHECKS as readonly string[]).includes(k)));
  if (extra.length > 0) return { ok: false, error: `${where}: ${extra.map(quoted).join(', ')} ${extra.length > 1 ? 'are' : 'is'} not part of a ${quoted(kind)} assertion; write each check as an assertion of its own.` };
  // The one branch of the union this assertion is: its error is about what the person meant.
  const branch = AssertionSchema.options.find((option) => Object.hasOwn(option.shape, check)) ?? AssertionSchema;
  return zodRead(branch, raw, where) as Read<Assertion>;
}

/** A zod check whose first issue becomes `where.path: message`. */
function zodRead<S extends z.ZodType>(schema: S, value: unknown, where: string): Read<z.infer<S>> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const at = issue ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') : '';
  return { ok: false, error: `${where}${at}: ${plain(issue?.message ?? 'is not valid')}` };
}

/** zod's words, a little plainer ("Invalid input: expected string, received number" → "expected a string, found a number"). */
function plain(message: string): string {
  const typed = /^Invalid input: expected (\w+), received (\w+)$/.exec(message);
  if (typed) return typed[2] === 'undefined' ? `is missing (expected ${article(typed[1])})` : `expected ${article(typed[1])}, found ${article(typed[2])}`;
  return message.replace(/^Invalid option: expected one of /, 'expected one of ').replace(/^Too small: expected string to have >=1 characters$/, 'is empty');
}

const article = (type: string): string => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

function omit(item: Json, key: string): Json {
  const { [key]: _dropped, ...rest } = item;
  return rest;
}

function noteUnknownKeys(item: Json, known: ReadonlySet<string>, where: string, notes: string[]): void {
  for (const key of Object.keys(item)) if (!known.has(key)) notes.push(`${where}: ${quoted(key)} is not a key Loupe knows; it is ignored.`);
}
