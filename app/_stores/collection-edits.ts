/**
 * Edits of the workspace's collection list (issue 27), as pure functions from one list to the
 * next: the Tests tab and `Save as test` compute the whole new list and send it (`set-collections`,
 * which the proxy checks with lib/collections/read.ts and broadcasts to every tab). A clash of
 * names is refused here with a sentence, before anything is sent.
 */
import type { Collection, CollectionCall } from '../../lib/collections/schema.ts';

export type Edit = { ok: true; collections: Collection[] } | { ok: false; error: string };

/** Add `call` to the collection named `name`, made (on `server`) when there is none. */
export function addCall(collections: readonly Collection[], name: string, call: CollectionCall, server?: string): Edit {
  const wanted = name.trim();
  if (wanted === '') return { ok: false, error: 'Give the collection a name' };
  if (call.name.trim() === '') return { ok: false, error: 'Give the call a name' };
  const at = collections.findIndex((c) => c.name === wanted);
  if (at < 0) return { ok: true, collections: [...collections, { name: wanted, ...(server !== undefined ? { server } : {}), calls: [call] }] };
  const collection = collections[at];
  if (collection.calls.some((c) => c.name === call.name)) return { ok: false, error: `Collection ${wanted} has a call named ${call.name} already: choose another name` };
  return { ok: true, collections: collections.map((c, i) => (i === at ? { ...c, calls: [...c.calls, call] } : c)) };
}

export function addCollection(collections: readonly Collection[], name: string, server?: string): Edit {
  const wanted = name.trim();
  if (wanted === '') return { ok: false, error: 'Give the collection a name' };
  if (collections.some((c) => c.name === wanted)) return { ok: false, error: `A collection named ${wanted} exists already: choose another name` };
  return { ok: true, collections: [...collections, { name: wanted, ...(server !== undefined ? { server } : {}), calls: [] }] };
}

/** Add a whole collection (a recording turned into one) under its own name. */
export function appendCollection(collections: readonly Collection[], collection: Collection): Edit {
  if (collections.some((c) => c.name === collection.name)) return { ok: false, error: `A collection named ${collection.name} exists already: choose another name` };
  return { ok: true, collections: [...collections, collection] };
}

/** Replace the collection named `from` (renamed when `next.name` differs). */
export function replaceCollection(collections: readonly Collection[], from: string, next: Collection): Edit {
  const wanted = next.name.trim();
  if (wanted === '') return { ok: false, error: 'Give the collection a name' };
  if (wanted !== from && collections.some((c) => c.name === wanted)) return { ok: false, error: `A collection named ${wanted} exists already: choose another name` };
  if (!collections.some((c) => c.name === from)) return { ok: false, error: `There is no collection named ${from} any more` };
  return { ok: true, collections: collections.map((c) => (c.name === from ? { ...next, name: wanted } : c)) };
}

export function deleteCollection(collections: readonly Collection[], name: string): Collection[] {
  return collections.filter((c) => c.name !== name);
}

/** Replace the call named `from` of collection `collection` (renamed when `next.name` differs). */
export function replaceCall(collections: readonly Collection[], collection: string, from: string, next: CollectionCall): Edit {
  const owner = collections.find((c) => c.name === collection);
  if (!owner) return { ok: false, error: `There is no collection named ${collection} any more` };
  const wanted = next.name.trim();
  if (wanted === '') return { ok: false, error: 'Give the call a name' };
  if (wanted !== from && owner.calls.some((c) => c.name === wanted)) return { ok: false, error: `Collection ${collection} has a call named ${wanted} already: choose another name` };
  const calls = owner.calls.map((c) => (c.name === from ? { ...next, name: wanted } : c));
  return { ok: true, collections: collections.map((c) => (c === owner ? { ...c, calls } : c)) };
}

export function deleteCall(collections: readonly Collection[], collection: string, name: string): Collection[] {
  return collections.map((c) => (c.name === collection ? { ...c, calls: c.calls.filter((call) => call.name !== name) } : c));
}
