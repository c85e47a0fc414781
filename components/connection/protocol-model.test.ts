import { describe, expect, it } from 'vitest';
import { draftFromFilter, EMPTY_DRAFT, eraOf, filterFromDraft, filterWords, listenWords, parseUris } from './protocol-model.ts';

describe('protocol generation words (issue 12)', () => {
  it('takes the era from the session, else the verdict, else legacy (a proxy from before issue 12)', () => {
    expect(eraOf({ era: 'modern' })).toBe('modern');
    expect(eraOf({ negotiation: { mode: 'auto', era: 'modern', reason: 'r' } })).toBe('modern');
    expect(eraOf({})).toBe('legacy');
    expect(eraOf(undefined)).toBe('legacy');
  });
});

describe('Subscriptions form', () => {
  it('reads URIs one per line or comma separated, each once', () => {
    expect(parseUris(' fixture://counter,\nfile:///a b , ,fixture://counter\n')).toEqual(['fixture://counter', 'file:///a b']);
    expect(parseUris('  \n ')).toEqual([]);
  });

  it('puts only what was asked for in the filter, and back', () => {
    expect(filterFromDraft(EMPTY_DRAFT)).toEqual({});
    const filter = filterFromDraft({ tools: true, prompts: false, resources: true, uris: 'fixture://counter' });
    expect(filter).toEqual({ toolsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['fixture://counter'] });
    expect(draftFromFilter(filter)).toEqual({ tools: true, prompts: false, resources: true, uris: 'fixture://counter' });
    expect(draftFromFilter(undefined)).toEqual(EMPTY_DRAFT);
  });

  it('says a filter in words', () => {
    expect(filterWords({ promptsListChanged: true, resourceSubscriptions: ['a://1', 'a://2'] })).toBe('prompts list changes, updates of a://1, a://2');
    expect(filterWords({})).toBe('nothing');
  });
});

describe('listen state', () => {
  const filter = { resourcesListChanged: true, resourceSubscriptions: ['fixture://counter'] };

  it('says opening, open with what the server honoured, and where it differs from what was asked', () => {
    expect(listenWords(undefined).text).toBe('Not listening. Choose what to hear about and press Listen.');
    expect(listenWords({ state: 'opening', filter }).text).toBe('Opening subscriptions/listen for resources list changes, updates of fixture://counter…');
    expect(listenWords({ state: 'open', filter, rpcId: 7 }).text).toBe('Listening (subscription id 7); the server has not acknowledged yet. Asked for resources list changes, updates of fixture://counter.');
    expect(listenWords({ state: 'open', filter, honored: filter, rpcId: 'l-1' })).toEqual({ text: 'Listening (subscription id l-1). The server honoured resources list changes, updates of fixture://counter.', tone: 'good' });
    expect(listenWords({ state: 'open', filter, honored: { resourcesListChanged: true } }).text).toBe('Listening. The server honoured resources list changes (asked for resources list changes, updates of fixture://counter).');
  });

  it('says how it ended', () => {
    expect(listenWords({ state: 'closed', filter, closed: 'local' }).text).toBe('Stopped: you closed the stream.');
    expect(listenWords({ state: 'closed', filter, closed: 'graceful' }).text).toBe('Stopped: the server ended the stream with an empty result.');
    expect(listenWords({ state: 'closed', filter, closed: 'remote', error: 'socket hang up' })).toEqual({ text: 'Stopped: the stream dropped: socket hang up. Press Listen to open it again.', tone: 'bad' });
    expect(listenWords({ state: 'closed', filter, closed: 'error', error: 'Method not found' })).toEqual({ text: 'Stopped with an error: Method not found.', tone: 'bad' });
  });
});
