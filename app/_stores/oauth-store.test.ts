import { describe, expect, it } from 'vitest';
import type { GuidedFlow } from '../../lib/wire/oauth.ts';
import { MessageHostFixture } from '../_wire/message-host-fixture.ts';
import { OAuthStore } from './oauth-store.ts';

class Host extends MessageHostFixture {}

const flow = (session: string, next = 0): GuidedFlow => ({ session, steps: [], next, done: false });

describe('OAuthStore', () => {
  it('keeps the latest flow of every session, and forgets it with its session or a new snapshot', () => {
    const host = new Host();
    const store = new OAuthStore(host);
    host.deliver({ type: 'oauth-guided-state', flow: flow('s1') });
    host.deliver({ type: 'oauth-guided-state', flow: flow('s2') });
    host.deliver({ type: 'oauth-guided-state', flow: flow('s1', 3) });
    expect(store.getSnapshot().flows).toEqual({ s1: flow('s1', 3), s2: flow('s2') });
    host.deliver({ type: 'session-removed', session: 's2' });
    expect(Object.keys(store.getSnapshot().flows)).toEqual(['s1']);
    host.deliver({ type: 'snapshot', version: 1, sessions: [], events: [], stats: [] });
    expect(store.getSnapshot().flows).toEqual({});
  });

  it('sends the OAuth messages, and says so when the socket is down', () => {
    const host = new Host();
    const store = new OAuthStore(host);
    let changes = 0;
    store.subscribe(() => changes++);
    store.start('s1');
    store.continueFlow('s1');
    store.stop('s1');
    store.saveSettings('s1', { clientId: 'c' });
    store.forget('s1');
    expect(host.sent).toEqual([
      { type: 'oauth-guided', session: 's1', action: 'start' },
      { type: 'oauth-guided', session: 's1', action: 'continue' },
      { type: 'oauth-guided', session: 's1', action: 'stop' },
      { type: 'oauth-settings', session: 's1', settings: { clientId: 'c' } },
      { type: 'oauth-forget', session: 's1' },
    ]);
    expect(changes).toBe(0);
    host.open = false;
    expect(store.start('s1')).toBe(false);
    expect(store.getSnapshot().notSent.s1).toMatch(/^Not connected to Loupe/);
    host.open = true;
    store.start('s1');
    expect(store.getSnapshot().notSent).toEqual({});
  });
});
