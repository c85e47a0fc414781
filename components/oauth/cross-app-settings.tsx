/**
 * The OAuth settings of cross-app access (issue 29; Enterprise-Managed Authorization, SEP-990): the
 * sign-in method, and the enterprise IdP that exchanges the person's ID token for an identity
 * assertion. The ID token and the IdP client secret are sent to the proxy once, when typed; the
 * page is then told only that they are set (IdpView), and keeps them nowhere but in this form's
 * state until it is saved.
 */
import type { ReactNode } from 'react';
import type { IdpSettings, IdpView, OAuthSettings } from '../../lib/wire/oauth.ts';
import { inputClass, labelClass } from '../ui/ui.tsx';

export type Grant = NonNullable<OAuthSettings['grant']>;

/** The sign-in methods, in the words of the `Sign-in method` choice. */
export const GRANTS: { value: Grant; label: string }[] = [
  { value: 'authorization_code', label: 'Sign in in the browser (authorization code)' },
  { value: 'client_credentials', label: 'Machine client (client credentials)' },
  { value: 'cross_app_access', label: 'Cross-app access (enterprise IdP)' },
];

/** What is typed in the IdP fields: the secrets start empty, whatever the proxy holds. */
export interface IdpDraft {
  tokenEndpoint: string;
  url: string;
  clientId: string;
  clientSecret: string;
  idToken: string;
}

export function idpDraftOf(view: IdpView | undefined): IdpDraft {
  return { tokenEndpoint: view?.tokenEndpoint ?? '', url: view?.url ?? '', clientId: view?.clientId ?? '', clientSecret: '', idToken: '' };
}

/**
 * The IdP settings to send: a field emptied is sent as "" (it clears what the proxy holds), one
 * that was empty stays out; a secret only when typed, or "" when asked to clear it.
 */
export function idpPayload(draft: IdpDraft, view: IdpView | undefined, clear: { idToken?: boolean; clientSecret?: boolean } = {}): IdpSettings {
  const field = (value: string, was: string | undefined) => (value.trim() !== '' ? value.trim() : was ? '' : undefined);
  const secret = (value: string, cleared: boolean | undefined) => (value.trim() !== '' ? value : cleared ? '' : undefined);
  const payload: IdpSettings = {
    tokenEndpoint: field(draft.tokenEndpoint, view?.tokenEndpoint),
    url: field(draft.url, view?.url),
    clientId: field(draft.clientId, view?.clientId),
    clientSecret: secret(draft.clientSecret, clear.clientSecret),
    idToken: secret(draft.idToken, clear.idToken),
  };
  return Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== undefined)) as IdpSettings;
}

export function GrantChoice({ grant, onChange }: { grant: Grant; onChange(grant: Grant): void }): ReactNode {
  return (
    <label className="block">
      <span className={labelClass}>Sign-in method</span>
      <select className={inputClass} value={grant} onChange={(e) => onChange(e.target.value as Grant)}>
        {GRANTS.map((g) => (
          <option key={g.value} value={g.value}>{g.label}</option>
        ))}
      </select>
    </label>
  );
}

interface FieldsProps {
  draft: IdpDraft;
  view?: IdpView;
  onChange(draft: IdpDraft): void;
}

/** The IdP's settings, shown when the sign-in method is cross-app access. */
export function CrossAppFields({ draft, view, onChange }: FieldsProps): ReactNode {
  const set = (key: keyof IdpDraft) => (e: { target: { value: string } }) => onChange({ ...draft, [key]: e.target.value });
  return (
    <fieldset className="space-y-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-700">
      <legend className="px-1 text-xs font-semibold">Identity provider (IdP)</legend>
      <p className="text-xs text-zinc-600 dark:text-zinc-300">
        Loupe exchanges your ID token at the IdP for an identity assertion (RFC 8693), then trades it at the server&apos;s authorization server for an access token (jwt-bearer, RFC 7523), as the Client ID and Client secret above. The ID token and the secrets stay in Loupe&apos;s process.
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        <label className="block">
          <span className={labelClass}>IdP token endpoint</span>
          <input className={inputClass} value={draft.tokenEndpoint} onChange={set('tokenEndpoint')} placeholder="https://idp.example.com/oauth2/token" spellCheck={false} />
        </label>
        <label className="block">
          <span className={labelClass}>IdP issuer URL</span>
          <input className={inputClass} value={draft.url} onChange={set('url')} placeholder="or the issuer, to discover the endpoint" spellCheck={false} />
        </label>
        <label className="block">
          <span className={labelClass}>IdP client ID</span>
          <input className={inputClass} value={draft.clientId} onChange={set('clientId')} autoComplete="off" spellCheck={false} />
        </label>
        <label className="block">
          <span className={labelClass}>IdP client secret</span>
          <input className={inputClass} type="password" value={draft.clientSecret} onChange={set('clientSecret')} autoComplete="new-password" placeholder={view?.hasClientSecret ? 'set (type to replace)' : 'none (a public client)'} />
        </label>
        <label className="block sm:col-span-2">
          <span className={labelClass}>ID token</span>
          <input className={inputClass} type="password" value={draft.idToken} onChange={set('idToken')} autoComplete="off" placeholder={view?.hasIdToken ? 'set (paste to replace)' : 'paste the ID token your IdP gave you'} />
        </label>
      </div>
      {view?.hasIdToken && <p className="text-xs">An ID token is set (Loupe keeps it; it is never shown).</p>}
    </fieldset>
  );
}
