/**
 * What both grants of Loupe's OAuth provider share (provider.ts): the tokens and where they
 * are kept, the page's view of the sign-in, the checks the SDK leaves out of discovery, the
 * challenges read off the transport's fetch, and forget.
 */
import { extractWWWAuthenticateParams, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthPhase, OAuthState } from '../../../lib/wire/oauth.ts';
import type { AuthStep, LoupeAuthProvider, OAuthOptions, ProviderHooks } from './types.ts';
import type { StoredCredentials } from '../store.ts';
import { sameIssuer } from '../../../lib/oauth/issuer.ts';

/** The `client_name` Loupe registers with. */
export const CLIENT_NAME = 'MCP Loupe';

export const scopesOf = (scope: string | undefined): string[] => (scope ?? '').split(' ').filter(Boolean);
export const covers = (granted: string | undefined, wanted: string | undefined): boolean => {
  const have = new Set(scopesOf(granted));
  return scopesOf(wanted).every((s) => have.has(s));
};
/** Both lists of scopes, each once, in order (the user's choice and what the server asks for). */
export function unionScopes(...scopes: (string | undefined)[]): string | undefined {
  const all = [...new Set(scopes.flatMap(scopesOf))];
  return all.length > 0 ? all.join(' ') : undefined;
}
export const omitUndefined = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/** The refresh token a token request sends, when it is a refresh (the SDK posts URLSearchParams). */
function refreshTokenSent(body: unknown): string | undefined {
  const params = body instanceof URLSearchParams ? body : typeof body === 'string' && body.includes('grant_type=') ? new URLSearchParams(body) : undefined;
  return params?.get('grant_type') === 'refresh_token' ? (params.get('refresh_token') ?? undefined) : undefined;
}


/** What both grants share: tokens, the store, the page's view, forget. */
export abstract class BaseProvider implements LoupeAuthProvider {
  protected saved?: OAuthTokens;
  protected savedAt?: number;
  protected client?: OAuthClientInformationMixed;
  protected phase: OAuthPhase = 'none';
  protected problem?: { error: string; hint?: string };
  protected authorizationServer?: string;
  /** A 403 asked for scopes the tokens lack: refreshing cannot widen a scope (RFC 6749 §6), so the refresh token is held back. */
  protected stepUpScope?: string;
  /** The scope the server's last challenge (401/403 `WWW-Authenticate`) named. */
  protected challengeScope?: string;
  /**
   * Why the sign-in under way failed, when Loupe named it itself (a check of the metadata, a refusal
   * it read): reportFailure then says the name and what to do rather than the SDK's words.
   */
  protected named?: { name: string; hint: string };
  /** The refresh token of the last refresh the authorization server refused (see invalidateCredentials). */
  private refusedRefresh?: string;
  protected readonly clientKey: string;

  constructor(
    protected readonly options: OAuthOptions,
    protected readonly hooks: ProviderHooks,
  ) {
    this.clientKey = options.clientId ?? options.clientMetadataUrl ?? 'dynamic registration';
    this.restore();
  }

  abstract get redirectUrl(): string | undefined;
  abstract get clientMetadata(): OAuthClientMetadata;
  abstract clientInformation(): OAuthClientInformationMixed | undefined;
  abstract saveClientInformation(info: OAuthClientInformationMixed): void;
  abstract redirectToAuthorization(url: URL): void;
  abstract saveCodeVerifier(verifier: string): void;
  abstract codeVerifier(): string;

  protected now(): number {
    return this.hooks.now?.() ?? Date.now();
  }

  protected step(step: string, status: AuthStep['status'], message: string): void {
    this.hooks.onStep?.({ step, status, message });
  }

  protected setPhase(phase: OAuthPhase): void {
    this.phase = phase;
    if (phase !== 'failed') this.problem = undefined;
    this.hooks.onChange();
  }

  tokens(): OAuthTokens | undefined {
    if (!this.saved) return undefined;
    return this.stepUpScope !== undefined ? { ...this.saved, refresh_token: undefined } : this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    const kind = this.tokenKind();
    const previous = this.saved;
    // A refresh that returns no new refresh token keeps the old one (the SDK does the same).
    this.saved = { ...tokens, refresh_token: tokens.refresh_token ?? (kind === 'refresh' ? previous?.refresh_token : undefined) };
    this.savedAt = this.now();
    this.stepUpScope = undefined;
    this.persist();
    const scope = this.saved.scope ? `scope ${this.saved.scope}` : 'no scope named';
    const life = this.saved.expires_in !== undefined ? `, valid ${this.saved.expires_in} s` : '';
    this.step(kind, 'passed', kind === 'refresh' ? `Access token refreshed (${scope}${life}).` : `Signed in at ${this.authorizationServer ?? 'the authorization server'} (${scope}${life}).`);
    this.setPhase('signed-in');
  }

  /** Which token request just answered: `token-request` (a sign-in) or `refresh`. */
  protected abstract tokenKind(): 'token-request' | 'refresh';

  /**
   * Called by auth() first thing: nothing is cached, so that each sign-in discovers afresh (and the
   * trace shows it); it marks that signing in has started.
   */
  discoveryState(): OAuthDiscoveryState | undefined {
    this.named = undefined;
    if (this.phase !== 'working') this.setPhase('working');
    return undefined;
  }

  /** Called by auth() after discovery: checks what the SDK 1.32.2 does not. Throwing ends the sign-in with that message. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.authorizationServer = state.authorizationServerUrl;
    const metadata = state.authorizationServerMetadata;
    // RFC 8414 §3.3: the issuer must be the URL the metadata was asked for. Only checked when the
    // resource metadata named the server: 2025-03-26 servers without it put their AS elsewhere.
    if (metadata && state.resourceMetadata && !sameIssuer(metadata.issuer, state.authorizationServerUrl)) {
      throw new Error(
        `The authorization server metadata fetched for ${state.authorizationServerUrl} names another issuer (${metadata.issuer}), so Loupe does not trust it (RFC 8414 §3.3): the server's protected resource metadata must name the issuer exactly.`,
      );
    }
    this.checkMetadata(state);
  }

  protected checkMetadata(_state: OAuthDiscoveryState): void {}

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    // Requests that got a 401 together each refresh; with rotating refresh tokens all but the first
    // are refused (invalid_grant), and the SDK would then drop the tokens the first one just saved.
    if (scope === 'tokens' && this.refusedRefresh !== undefined && this.saved?.refresh_token !== undefined && this.saved.refresh_token !== this.refusedRefresh) {
      this.refusedRefresh = undefined;
      return;
    }
    if (scope === 'all' || scope === 'tokens') {
      this.saved = undefined;
      this.savedAt = undefined;
      this.stepUpScope = undefined;
    }
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'verifier') this.dropSignIns();
    if (scope !== 'discovery' && scope !== 'verifier') {
      this.persist();
      this.step('sign-in', 'info', scope === 'tokens' ? 'The authorization server refused the stored tokens; signing in again.' : 'The authorization server refused the stored client; registering again.');
    }
    this.hooks.onChange();
  }

  protected abstract dropSignIns(): void;

  pendingAuthorization(): URL | undefined {
    return undefined;
  }

  expectedState(): string | undefined {
    return undefined;
  }

  takeState(_state: string): boolean {
    return false;
  }

  cancelAuthorization(_state: string): void {}

  watchChallenges(fetchFn: FetchLike): FetchLike {
    return async (input, init) => {
      const refreshing = refreshTokenSent(init?.body);
      const response = await fetchFn(input, init);
      if (refreshing !== undefined && !response.ok) this.refusedRefresh = refreshing;
      if (response.status === 401 || response.status === 403) {
        const { error, scope } = extractWWWAuthenticateParams(response);
        if (scope) this.challengeScope = scope;
        if (response.status === 403 && error === 'insufficient_scope') this.noteStepUp(scope);
      }
      return response;
    };
  }

  /**
   * The transport's step-up calls auth(), which refreshes first when it holds a refresh token; a
   * refresh keeps the scope, the 403 comes back and the transport gives up. So while the server
   * asks for scopes the tokens lack, tokens() hides the refresh token and auth() signs in anew.
   */
  protected noteStepUp(scope: string | undefined): void {
    const granted = this.saved?.scope;
    if (!this.saved?.refresh_token || (scope !== undefined && granted !== undefined && covers(granted, scope))) return;
    this.stepUpScope = scope ?? '';
    this.step('step-up', 'info', `The server needs ${scope ? `scope ${scope}` : 'more scope'}${granted ? ` (granted: ${granted})` : ''}; signing in again for it.`);
  }

  reportFailure(error: string, hint?: string): void {
    const named = this.named;
    this.named = undefined;
    this.problem = named ? { error: `${named.name}.`, hint: named.hint } : { error, hint };
    this.step('sign-in', 'failed', named ? named.name : error);
    this.setPhase('failed');
  }

  async forget(): Promise<void> {
    this.saved = undefined;
    this.savedAt = undefined;
    this.client = undefined;
    this.stepUpScope = undefined;
    this.dropSignIns();
    const forgotten = this.hooks.store?.forget();
    if (forgotten && !forgotten.ok) this.step('forget', 'failed', forgotten.error);
    this.step('forget', 'info', `Credentials forgotten${this.hooks.store ? ` (also in ${this.hooks.store.where})` : ''}.`);
    this.setPhase('none');
  }

  authState(): OAuthState {
    const client = this.clientInformation();
    const expiresIn = this.saved?.expires_in;
    return omitUndefined({
      phase: this.phase,
      authorizationUrl: this.phase === 'waiting-for-user' ? this.pendingAuthorization()?.href : undefined,
      authorizationServer: this.authorizationServer,
      clientId: client?.client_id ?? this.options.clientId,
      hasClientSecret: Boolean(client?.client_secret ?? this.options.clientSecret ?? this.options.privateKeyPem),
      scope: this.saved ? this.grantedScope() : undefined,
      expiresAt: expiresIn !== undefined && this.savedAt !== undefined ? this.savedAt + expiresIn * 1000 : undefined,
      hasRefreshToken: this.saved ? Boolean(this.saved.refresh_token) : undefined,
      error: this.phase === 'failed' ? this.problem?.error : undefined,
      hint: this.phase === 'failed' ? this.problem?.hint : undefined,
      settings: omitUndefined({ clientId: this.options.clientId, clientMetadataUrl: this.options.clientMetadataUrl, scope: this.options.scope, grant: this.options.grant }),
    });
  }

  protected grantedScope(): string | undefined {
    return this.saved?.scope;
  }

  private restore(): void {
    const loaded = this.hooks.store?.load(this.clientKey);
    if (!loaded) return;
    if (!loaded.ok) {
      this.step('sign-in', 'failed', loaded.error);
      return;
    }
    const stored: StoredCredentials | undefined = loaded.value;
    this.client = stored?.clientInformation;
    this.saved = stored?.tokens;
    this.savedAt = stored?.savedAt;
    if (this.saved) this.phase = 'signed-in';
  }

  protected persist(): void {
    const saved = this.hooks.store?.save(this.clientKey, omitUndefined({ clientInformation: this.client, tokens: this.saved, savedAt: this.savedAt }));
    if (saved && !saved.ok) this.step('sign-in', 'failed', saved.error);
  }
}
