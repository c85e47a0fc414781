/**
 * A session's OAuth (issue 11): its settings, its provider (proxy/oauth/provider/provider.ts: tokens and
 * secrets live there, in the proxy), and how it gets an authorization code: from Loupe's
 * `/oauth/callback` when a person signs in in the page, or by following the authorization
 * server's redirect when there is no page (the headless modes). The SDK's transports run the
 * protocol (discovery, registration, PKCE, refresh, step-up); this decides what the app must.
 */
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { IdpSettings, OAuthSettings, OAuthState } from '../../lib/wire/oauth.ts';
import type { OAuthCallbacks } from '../oauth/callback.ts';
import type { LoupeAuthProvider, OAuthOptions } from '../oauth/provider/provider.ts';
import type { TraceRecorder } from '../pipeline/trace-recorder.ts';

export interface OAuthContext {
  /** Loupe's callback URL (`http://127.0.0.1:PORT/oauth/callback`, or the headless one). */
  redirectUrl(): string;
  callbacks: OAuthCallbacks;
  /** No person to open a page: follow the authorization server's redirect instead. */
  headless: boolean;
  /** The command line's OAuth options (`--client-id`, …), for the sessions it starts. */
  defaults?: OAuthOptions;
  /** `--remember-credentials`: keep tokens and registered clients across launches (proxy/oauth/store.ts). */
  remember?: boolean;
}

/**
 * The IdP settings after the page's: every field sent replaces the held one ("" clears it), a field
 * not sent is kept; the ID token and the IdP secret are sent only when typed.
 */
export function mergeIdp(before: IdpSettings | undefined, next: IdpSettings): IdpSettings | undefined {
  const merged: IdpSettings = { ...before };
  for (const key of ['tokenEndpoint', 'url', 'clientId', 'clientSecret', 'idToken'] as const) {
    const value = next[key];
    if (value === undefined) continue;
    // A secret is kept as typed; a pasted ID token (a JWT) loses the line break it came with.
    const kept = key === 'clientSecret' ? value : value.trim();
    merged[key] = kept.trim() === '' ? undefined : kept;
  }
  return Object.values(merged).some((v) => v !== undefined) ? merged : undefined;
}

export type CodeOutcome = { ok: true; code: string } | { ok: false; error: string };

export class SessionOAuth {
  private settings: OAuthOptions;
  private current?: LoupeAuthProvider;
  private waitingState?: string;

  constructor(
    private readonly context: OAuthContext,
    private readonly trace: TraceRecorder,
    private readonly changed: () => void,
  ) {
    this.settings = { ...context.defaults };
  }

  /** What the page is shown (SessionInfo.auth); undefined before any sign-in was needed. */
  state(): OAuthState | undefined {
    return this.current?.authState();
  }

  /**
   * The provider of this session, made on first use and kept across reconnects (its tokens with
   * it). Loaded then: the SDK's auth code (and jose) need not weigh on a Loupe of stdio servers.
   */
  async provider(serverUrl: string): Promise<LoupeAuthProvider> {
    if (this.current) return this.current;
    const [{ createOAuthProvider }, { credentialStoreFor }] = await Promise.all([import('../oauth/provider/provider.ts'), import('../oauth/store.ts')]);
    this.current ??= createOAuthProvider(this.settings, {
      redirectUrl: this.context.redirectUrl(),
      store: credentialStoreFor(serverUrl, this.context.remember === true),
      onStep: (step) => this.trace.record({ kind: 'auth', ...step }),
      // The provider records the step itself (onStep); the page needs the link.
      onAuthorizationUrl: () => this.changed(),
      onChange: () => this.changed(),
    });
    return this.current;
  }

  /** New settings from the page: the next connect signs in with them (credentials of another client are dropped). */
  async setSettings(next: OAuthSettings): Promise<void> {
    // The page sends every field; an emptied one is "" (absent means "keep"); a secret "" clears it.
    const blank = (value: string | undefined, kept: string | undefined) => (value === undefined ? kept : value.trim() === '' ? undefined : value.trim());
    const before = this.settings;
    const grant = next.grant ?? before.grant;
    this.settings = {
      ...before,
      clientId: blank(next.clientId, before.clientId),
      clientMetadataUrl: blank(next.clientMetadataUrl, before.clientMetadataUrl),
      scope: blank(next.scope, before.scope),
      clientSecret: next.clientSecret === undefined ? before.clientSecret : next.clientSecret === '' ? undefined : next.clientSecret,
      grant,
      clientCredentials: grant === 'client_credentials' || undefined,
      // A grant chosen in the page replaces the command line's ID token file with what the page sends.
      idTokenFile: next.idp?.idToken !== undefined ? undefined : before.idTokenFile,
    };
    if (next.idp !== undefined) this.settings.idp = mergeIdp(before.idp, next.idp);
    const after = this.settings;
    const changed = (['clientId', 'clientSecret', 'clientMetadataUrl', 'scope', 'grant'] as const).some((key) => before[key] !== after[key]) || JSON.stringify(before.idp ?? {}) !== JSON.stringify(after.idp ?? {});
    if (changed) {
      await this.current?.forget();
      this.current = undefined;
      this.trace.record({ kind: 'auth', step: 'settings', status: 'info', message: 'OAuth settings changed: the next connect signs in with them' });
    }
    this.changed();
  }

  /** The settings as held, client secret included (the guided flow's; never the page's). */
  settingsWithSecret(): OAuthSettings & { idTokenFile?: string } {
    const { clientId, clientSecret, clientMetadataUrl, scope, grant, idp, idTokenFile } = this.settings;
    return { clientId, clientSecret, clientMetadataUrl, scope, grant, idp, idTokenFile };
  }

  /** What the page may see: no secret, only whether the client secret, the IdP's and the ID token are set. */
  settingsView(): NonNullable<OAuthState['settings']> {
    const { clientId, clientMetadataUrl, scope, grant, idp, idTokenFile } = this.settings;
    const idpView = idp || idTokenFile ? { tokenEndpoint: idp?.tokenEndpoint, url: idp?.url, clientId: idp?.clientId, hasClientSecret: Boolean(idp?.clientSecret), hasIdToken: Boolean(idp?.idToken || idTokenFile) } : undefined;
    return { clientId, clientMetadataUrl, scope, grant, idp: idpView };
  }

  /** `Forget credentials`: tokens, the registered client and the secret, in memory and on disk. */
  async forget(): Promise<void> {
    this.cancelWaiting('Credentials were forgotten.');
    await this.current?.forget();
    this.current = undefined;
    // The IdP's secrets go too: the ID token is a credential of the person.
    const idp = this.settings.idp && { ...this.settings.idp, clientSecret: undefined, idToken: undefined };
    this.settings = { ...this.settings, clientSecret: undefined, idp };
    this.trace.record({ kind: 'auth', step: 'forget', status: 'info', message: 'Credentials forgotten: tokens, the registered client and the client secret' });
    this.changed();
  }

  /** The authorization the SDK stopped at, waiting for a code. */
  pendingAuthorization(): URL | undefined {
    return this.current?.pendingAuthorization();
  }

  /** The recording fetch of the current connection, for the redirects the headless sign-in follows. */
  useFetch(fetchFn: FetchLike): void {
    this.fetchFn = fetchFn;
  }

  private fetchFn?: FetchLike;

  /** The code for the pending authorization, however this face gets one. */
  async obtainCode(url: URL, fetchFn: FetchLike = this.fetchFn ?? fetch): Promise<CodeOutcome> {
    const provider = this.current;
    if (!provider) return { ok: false, error: 'No sign-in is in progress.' };
    if (this.context.headless) {
      const { followRedirect } = await import('../oauth/headless.ts');
      const state = provider.expectedState();
      const got = await followRedirect(url, this.context.redirectUrl(), fetchFn, state ?? null);
      if ('code' in got && state) provider.takeState(state);
      this.trace.record({ kind: 'auth', step: 'callback', status: 'code' in got ? 'passed' : 'failed', message: 'code' in got ? `The authorization server redirected back with a code` : got.error });
      return 'code' in got ? { ok: true, code: got.code } : { ok: false, error: got.error };
    }
    const state = provider.expectedState();
    if (!state) return { ok: false, error: 'Loupe has no state to match the sign-in against; start it again.' };
    this.waitingState = state;
    const got = await this.context.callbacks.expect(state, url.host);
    if (this.waitingState === state) this.waitingState = undefined;
    this.trace.record({ kind: 'auth', step: 'callback', status: got.ok ? 'passed' : 'failed', message: got.ok ? 'Loupe received the authorization code at /oauth/callback' : got.error });
    // The state selects this sign-in's PKCE verifier, once.
    if (got.ok && !provider.takeState(state)) return { ok: false, error: 'The sign-in expired before the code arrived; start it again.' };
    if (!got.ok) provider.cancelAuthorization(state);
    return got;
  }

  /**
   * The SDK stopped a request at the authorization page (a step-up on 403 insufficient_scope, or a
   * refresh that failed; it already chose the wider scope): get the code as this face does, and let
   * the transport trade it. False when there is nothing to do, or the sign-in failed (said in the state).
   */
  async signInAgain(transport: (Transport & { finishAuth?(code: string): Promise<void> }) | undefined): Promise<boolean> {
    const pending = this.pendingAuthorization();
    if (!pending || !transport?.finishAuth) return false;
    const got = await this.obtainCode(pending);
    if (!got.ok) {
      this.connectFailed(got.error);
      return false;
    }
    try {
      await transport.finishAuth(got.code);
      return true;
    } catch (error) {
      this.connectFailed(error instanceof Error ? error.message : String(error));
      return false;
    }
  }

  /** A connect failed: a sign-in still shown as under way is shown as failed, with the reason. */
  connectFailed(message: string, hint?: string): void {
    const phase = this.current?.authState().phase;
    if (phase === 'working' || phase === 'waiting-for-user') this.current!.reportFailure(message, hint);
  }

  /** A disconnect or a cancel while the user is at the authorization page. */
  cancelWaiting(why: string): void {
    if (this.waitingState) this.context.callbacks.cancel(this.waitingState, why);
    this.waitingState = undefined;
  }
}
