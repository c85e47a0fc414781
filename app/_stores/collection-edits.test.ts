import { describe, expect, it } from 'vitest';
import type { Collection } from '../../lib/collections/schema.ts';
import { addCall, addCollection, appendCollection, deleteCall, deleteCollection, replaceCall, replaceCollection } from './collection-edits.ts';

const echo = { name: 'echo', kind: 'tool' as const, target: 'echo', arguments: { message: 'hi' } };
const list: Collection[] = [{ name: 'smoke', calls: [echo] }];

describe('collection edits (issue 27)', () => {
  it('adds a call to a collection, making it (on a server) when it is new; refuses a call name taken there', () => {
    const added = addCall(list, 'smoke', { ...echo, name: 'echo 2' });
    expect(added.ok && added.collections[0].calls.map((c) => c.name)).toEqual(['echo', 'echo 2']);
    const made = addCall(list, ' nightly ', echo, 'everything');
    expect(made.ok && made.collections[1]).toEqual({ name: 'nightly', server: 'everything', calls: [echo] });
    expect(addCall(list, 'smoke', echo)).toEqual({ ok: false, error: 'Collection smoke has a call named echo already: choose another name' });
    expect(addCall(list, '  ', echo)).toMatchObject({ ok: false });
    expect(list[0].calls).toHaveLength(1);
  });

  it('creates, renames and deletes collections; a name taken is refused', () => {
    expect(addCollection(list, 'smoke')).toMatchObject({ ok: false, error: expect.stringMatching(/exists already/) });
    const created = addCollection(list, 'empty');
    expect(created.ok && created.collections[1]).toEqual({ name: 'empty', calls: [] });
    const renamed = replaceCollection(list, 'smoke', { ...list[0], name: 'daily' });
    expect(renamed.ok && renamed.collections.map((c) => c.name)).toEqual(['daily']);
    expect(replaceCollection([...list, { name: 'b', calls: [] }], 'b', { name: 'smoke', calls: [] })).toMatchObject({ ok: false });
    expect(deleteCollection(list, 'smoke')).toEqual([]);
    expect(appendCollection(list, { name: 'smoke', calls: [] })).toMatchObject({ ok: false });
    expect(appendCollection(list, { name: 'rec', calls: [] })).toMatchObject({ ok: true });
  });

  it('replaces and deletes a call in its collection', () => {
    const two: Collection[] = [{ name: 'smoke', calls: [echo, { ...echo, name: 'other' }] }];
    const edited = replaceCall(two, 'smoke', 'echo', { ...echo, name: 'echo hi', assert: [{ isError: false }] });
    expect(edited.ok && edited.collections[0].calls[0]).toEqual({ ...echo, name: 'echo hi', assert: [{ isError: false }] });
    expect(replaceCall(two, 'smoke', 'echo', { ...echo, name: 'other' })).toMatchObject({ ok: false, error: expect.stringMatching(/named other already/) });
    expect(replaceCall(two, 'gone', 'echo', echo)).toMatchObject({ ok: false });
    expect(deleteCall(two, 'smoke', 'echo')[0].calls.map((c) => c.name)).toEqual(['other']);
  });
});
