// The cross-app settings of the OAuth tab: what the form sends — a field emptied is sent as "" (it
// clears what the proxy holds), the ID token and the IdP secret only when typed or cleared — and the
// sign-in method choice with its three grants.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CrossAppFields, GRANTS, GrantChoice, idpDraftOf, idpPayload } from './cross-app-settings.tsx';

describe('idpPayload', () => {
  const view = { tokenEndpoint: 'https://idp/token', clientId: 'loupe', hasIdToken: true, hasClientSecret: false };

  it('sends the fields typed, keeps the held secrets unless one is typed or cleared', () => {
    const draft = { ...idpDraftOf(view), idToken: 'eyJ.x.y' };
    expect(idpPayload(draft, view)).toEqual({ tokenEndpoint: 'https://idp/token', clientId: 'loupe', idToken: 'eyJ.x.y' });
    expect(idpPayload(idpDraftOf(view), view)).toEqual({ tokenEndpoint: 'https://idp/token', clientId: 'loupe' });
    expect(idpPayload(idpDraftOf(view), view, { idToken: true })).toEqual({ tokenEndpoint: 'https://idp/token', clientId: 'loupe', idToken: '' });
  });

  it('an emptied field clears what was held; one never set stays out', () => {
    expect(idpPayload({ ...idpDraftOf(view), tokenEndpoint: ' ', url: 'https://idp' }, view)).toEqual({ tokenEndpoint: '', url: 'https://idp', clientId: 'loupe' });
    expect(idpPayload(idpDraftOf(undefined), undefined)).toEqual({});
  });
});

describe('the form parts', () => {
  it('offers the three sign-in methods, cross-app access by its name', () => {
    const html = renderToStaticMarkup(createElement(GrantChoice, { grant: 'cross_app_access', onChange: () => {} }));
    expect(GRANTS.map((g) => g.label)).toContain('Cross-app access (enterprise IdP)');
    expect(html).toContain('Sign-in method');
    expect(html).toMatch(/<option value="cross_app_access" selected="">Cross-app access \(enterprise IdP\)<\/option>/);
  });

  it('names each IdP field, the secrets as password fields that never show what is held', () => {
    const html = renderToStaticMarkup(createElement(CrossAppFields, { draft: idpDraftOf(undefined), view: { hasIdToken: true }, onChange: () => {} }));
    for (const label of ['IdP token endpoint', 'IdP issuer URL', 'IdP client ID', 'IdP client secret', 'ID token']) expect(html).toContain(`>${label}</span>`);
    expect(html.match(/type="password"/g)).toHaveLength(2);
    expect(html).toContain('placeholder="set (paste to replace)"');
    expect(html).toContain('An ID token is set (Loupe keeps it; it is never shown).');
  });
});
