/**
 * A session's OAuth settings (oauth.ts) as the page changes them: the IdP of cross-app access merged
 * field by field ("" clears, absent keeps), its ID token and secret kept in the proxy and shown to
 * the page only as set, dropped by Forget credentials; the command line's ID token file counted as a
 * token and replaced by one the page sends.
 */
import { describe, expect, it } from 'vitest';
import { TraceRecorder } from '../pipeline/trace-recorder.ts';
import { OAuthCallbacks } from '../oauth/callback.ts';
import { mergeIdp, SessionOAuth } from './oauth.ts';

const session = (defaults = {}) => new SessionOAuth({ redirectUrl: () => 'http://127.0.0.1:1/oauth/callback', callbacks: new OAuthCallbacks(), headless: false, defaults }, new TraceRecorder('s1'), () => {});

describe('mergeIdp', () => {
  it('replaces the fields sent, keeps the others, clears an empty one, trims all but the secret', () => {
    const held = { tokenEndpoint: 'https://idp/token', clientId: 'loupe', idToken: 'old' };
    expect(mergeIdp(held, { clientId: ' other ', idToken: ' eyJ.new.sig\n' })).toEqual({ tokenEndpoint: 'https://idp/token', clientId: 'other', idToken: 'eyJ.new.sig' });
    expect(mergeIdp(held, { tokenEndpoint: '', clientSecret: ' s p ' })).toEqual({ clientId: 'loupe', idToken: 'old', clientSecret: ' s p ' });
    expect(mergeIdp({ idToken: 'x' }, { idToken: '' })).toBeUndefined();
  });
});

describe('SessionOAuth settings', () => {
  it('keeps the ID token and the IdP secret in the proxy; the page sees them only as set; Forget drops them', async () => {
    const oauth = session();
    await oauth.setSettings({ grant: 'cross_app_access', clientId: 'loupe', clientSecret: 'cs', idp: { tokenEndpoint: 'https://idp/token', clientId: 'at-idp', clientSecret: 'idp-secret', idToken: 'eyJ.id.token' } });
    expect(oauth.settingsView()).toEqual({ clientId: 'loupe', grant: 'cross_app_access', idp: { tokenEndpoint: 'https://idp/token', clientId: 'at-idp', hasClientSecret: true, hasIdToken: true } });
    expect(JSON.stringify(oauth.settingsView())).not.toMatch(/eyJ\.id\.token|idp-secret|"cs"/);
    expect(oauth.settingsWithSecret().idp).toMatchObject({ idToken: 'eyJ.id.token', clientSecret: 'idp-secret' });
    await oauth.forget();
    expect(oauth.settingsView().idp).toEqual({ tokenEndpoint: 'https://idp/token', clientId: 'at-idp', hasClientSecret: false, hasIdToken: false });
  });

  it('counts the command line\'s ID token file as a token, until the page sends one of its own', async () => {
    const oauth = session({ grant: 'cross_app_access', idp: { tokenEndpoint: 'https://idp/token' }, idTokenFile: '/run/id-token' });
    expect(oauth.settingsView().idp?.hasIdToken).toBe(true);
    await oauth.setSettings({ idp: { idToken: 'eyJ.pasted.token' } });
    expect(oauth.settingsWithSecret()).toMatchObject({ idTokenFile: undefined, idp: { idToken: 'eyJ.pasted.token' } });
  });
});
