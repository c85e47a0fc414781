/**
 * The authorization code grant with PKCE for Loupe's OAuth provider (provider.ts): Loupe's
 * client metadata, one `state` per sign-in (RFC 6749 §10.12) with its PKCE verifier and URL, and
 * accepting a callback's state once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { JWT_BEARER_GRANT } from '../../../lib/oauth/cross-app.ts';
import { BaseProvider, CLIENT_NAME, omitUndefined, unionScopes } from './base.ts';

/** How long a started sign-in waits for its callback (the lead's callback route waits as long). */
const SIGN_IN_LIFETIME_MS = 10 * 60_000;
/** Sign-ins kept at once (a person may start one, then another). */
const MAX_PENDING = 8;

interface PendingSignIn {
  created: number;
  url?: URL;
  verifier?: string;
}

/** Authorization code with PKCE: a person (or, headless, an authorization server that approves at once) signs in. */
export class AuthorizationCodeProvider extends BaseProvider {
  private readonly signIns = new Map<string, PendingSignIn>();
  /** Clients registered in this run, by id (see takeState). */
  private readonly registered = new Map<string, OAuthClientInformationMixed>();
  /** The state of the sign-in whose url was opened last. */
  private latest?: string;
  /** Verifiers saved by auth() and not yet matched to their authorization URL. */
  private verifiers: string[] = [];
  /**
   * The sign-in whose code is being exchanged (takeState), the client its code was issued to, and
   * whether the exchange has begun.
   */
  private exchange?: { state: string; verifier: string; scope?: string; clientId?: string };
  private exchanging = false;
  private exchangedScope?: string;

  get redirectUrl(): string {
    return this.hooks.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const secret = this.options.clientSecret !== undefined && this.options.clientSecret !== '';
    return omitUndefined({
      client_name: CLIENT_NAME,
      redirect_uris: [this.hooks.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: secret ? 'client_secret_basic' : 'none',
      scope: this.options.scope,
    });
  }

  /** The OAuth `state` (RFC 6749 §10.12): 256 random bits, one per sign-in. */
  state(): string {
    const state = randomBytes(32).toString('base64url');
    this.signIns.set(state, { created: this.now() });
    while (this.signIns.size > MAX_PENDING) this.signIns.delete(this.signIns.keys().next().value!);
    return state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.client) return this.client;
    if (!this.options.clientId) return undefined;
    const secret = this.options.clientSecret ? { client_secret: this.options.clientSecret } : {};
    return { client_id: this.options.clientId, ...secret };
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    const before = this.client;
    this.registered.set(info.client_id, info);
    // A code being exchanged belongs to the client it was issued to (takeState): a client another
    // request registers meanwhile does not take its place, since auth() reads clientInformation()
    // only after its discovery's awaits. Unless that client was invalidated since.
    const owner = this.exchange?.clientId;
    if (owner === undefined || owner === info.client_id || this.client === undefined) this.client = info;
    this.persist();
    if (before?.client_id === info.client_id) return; // the SDK binding a known client to its issuer
    if (info.client_id === this.options.clientMetadataUrl) this.step('registration', 'passed', `Using the client ID metadata document ${info.client_id} as the client id.`);
    else if ('redirect_uris' in info) this.step('registration', 'passed', `Registered as client ${info.client_id} (dynamic client registration).`);
  }

  /**
   * auth() saves the verifier, then passes the URL; sign-ins started together interleave between
   * the two, so the verifier is matched to its URL by its S256 challenge (RFC 7636 §4.2).
   */
  saveCodeVerifier(verifier: string): void {
    this.verifiers.push(verifier);
    while (this.verifiers.length > MAX_PENDING) this.verifiers.shift();
  }

  redirectToAuthorization(url: URL): void {
    // The SDK asks for the challenge's scope, else the metadata's, and the configured one only when
    // neither names any (SEP-835); a scope the user typed is asked for as well.
    const scope = unionScopes(url.searchParams.get('scope') ?? undefined, this.options.scope);
    if (scope) url.searchParams.set('scope', scope);
    const state = url.searchParams.get('state');
    const signIn = state !== null ? this.signIns.get(state) : undefined;
    const challenge = url.searchParams.get('code_challenge');
    const index = this.verifiers.findIndex((v) => createHash('sha256').update(v).digest('base64url') === challenge);
    if (signIn && state !== null && index >= 0) {
      signIn.url = url;
      signIn.verifier = this.verifiers.splice(index, 1)[0];
      this.latest = state;
    }
    this.step('authorization-request', 'info', `Sign-in needed at ${url.origin}${url.searchParams.get('scope') ? ` for scope ${url.searchParams.get('scope')}` : ''}.`);
    this.setPhase('waiting-for-user');
    this.hooks.onAuthorizationUrl(url);
  }

  codeVerifier(): string {
    if (!this.exchange && this.latest !== undefined) this.takeState(this.latest);
    if (!this.exchange) throw new Error('No sign-in is waiting for a code (it finished, was cancelled or expired): sign in again.');
    this.exchanging = true;
    this.exchangedScope = this.exchange.scope;
    return this.exchange.verifier;
  }

  protected tokenKind(): 'token-request' | 'refresh' {
    return this.exchanging ? 'token-request' : 'refresh';
  }

  saveTokens(tokens: OAuthTokens): void {
    // RFC 6749 §5.1: a token response without `scope` granted what was asked.
    const asked = this.exchanging ? this.exchangedScope : undefined;
    super.saveTokens(asked !== undefined && tokens.scope === undefined ? { ...tokens, scope: asked } : tokens);
    this.exchange = undefined;
    this.exchanging = false;
    // Signed in: sign-ins started before are needless now (the phase already says signed-in).
    this.dropSignIns();
  }

  protected checkMetadata(state: OAuthDiscoveryState): void {
    const grants = state.authorizationServerMetadata?.grant_types_supported;
    if (grants && !grants.includes('authorization_code')) {
      const assertions = grants.includes(JWT_BEARER_GRANT);
      const hint = assertions
        ? `It takes identity assertions from an enterprise IdP instead (the jwt-bearer grant). Choose Cross-app access (enterprise IdP) in the OAuth settings, or give Loupe --idp-token-endpoint URL with --id-token-file FILE.`
        : `It lists ${grants.join(', ') || 'no grant'}; sign in another way (a machine client: --oauth-client-credentials).`;
      this.named = { name: 'Authorization code grant not offered', hint: `The authorization server ${state.authorizationServerUrl} does not offer the authorization code grant. ${hint}` };
      throw new Error(`${this.named.name}: ${this.named.hint}`);
    }
    const methods = state.authorizationServerMetadata?.code_challenge_methods_supported;
    if (state.authorizationServerMetadata && !methods?.includes('S256')) {
      throw new Error(
        methods === undefined
          ? `The authorization server ${state.authorizationServerUrl} does not say it supports PKCE (no code_challenge_methods_supported in its metadata), and MCP clients must refuse to sign in without it: the server must list S256.`
          : `The authorization server ${state.authorizationServerUrl} does not support PKCE with S256 (it lists ${methods.join(', ') || 'nothing'}), and MCP clients must refuse to sign in without it.`,
      );
    }
  }

  pendingAuthorization(): URL | undefined {
    return this.latest !== undefined ? this.signIns.get(this.latest)?.url : undefined;
  }

  expectedState(): string | undefined {
    return this.pendingAuthorization() ? this.latest : undefined;
  }

  takeState(state: string): boolean {
    // Taking the state already taken (a caller and a helper both checking it) is no second use.
    if (this.exchange?.state === state) return true;
    const signIn = this.signIns.get(state);
    if (!signIn?.verifier || !signIn.url) return false;
    this.signIns.delete(state);
    if (this.latest === state) this.latest = undefined;
    if (this.now() - signIn.created > SIGN_IN_LIFETIME_MS) return false;
    // Two requests that failed together may each have registered a client: the code belongs to the
    // one this sign-in's URL names, so that one must make the exchange.
    const clientId = signIn.url.searchParams.get('client_id') ?? '';
    const client = this.registered.get(clientId);
    this.exchange = { state, verifier: signIn.verifier, scope: signIn.url.searchParams.get('scope') ?? undefined, clientId: client ? clientId : undefined };
    if (client && client !== this.client) {
      this.client = client;
      this.persist();
    }
    return true;
  }

  cancelAuthorization(state: string): void {
    if (!this.signIns.delete(state)) return;
    if (this.latest === state) this.latest = undefined;
    if (this.phase === 'waiting-for-user') this.setPhase(this.saved ? 'signed-in' : 'none');
  }

  protected dropSignIns(): void {
    this.signIns.clear();
    this.latest = undefined;
    this.verifiers = [];
    this.exchange = undefined;
  }

  protected grantedScope(): string | undefined {
    return this.saved?.scope;
  }
}
