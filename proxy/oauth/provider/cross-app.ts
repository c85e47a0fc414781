/**
 * Cross-app access (issue 29; Enterprise-Managed Authorization, SEP-990) for Loupe's OAuth provider
 * (provider.ts): the user's ID token from an enterprise IdP is exchanged at the IdP for an identity
 * assertion grant (ID-JAG, RFC 8693 token exchange), which the server's authorization server trades
 * for an access token (the jwt-bearer grant, RFC 7523, with client_secret_basic).
 *
 * The protocol is the SDK's: the v2 client package's `CrossAppAccessProvider` prepares the jwt-bearer
 * request and `requestJwtAuthorizationGrant` / `discoverAndRequestJwtAuthGrant` make the exchange.
 * The glue, and why it is needed: Loupe's transports run the v1 SDK's `auth()`, which tells a
 * provider what discovery found through `saveDiscoveryState` only, while the v2 provider waits for
 * `saveAuthorizationServerUrl` / `saveResourceUrl` (v2's `auth()` calls them); so this passes them
 * on. Beside that it keeps the tokens, the page's view and forget as for the other grants, sends the
 * IdP exchange through the session's recording fetch (it shows in the History like every request),
 * and names each failure in words (lib/oauth/cross-app.ts).
 * https://github.com/modelcontextprotocol/ext-auth/blob/main/specification/stable/enterprise-managed-authorization.mdx
 */
import { readFileSync } from 'node:fs';
import type { CrossAppAccessContext, CrossAppAccessProvider } from '@modelcontextprotocol/client';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { assertionProblems, decodeJwt, describeProblem, explainCrossApp, grantListed, JWT_BEARER_GRANT, jwtBearerFailure, tokenExchangeFailure, type CrossAppFailure, type JwtClaims } from '../../../lib/oauth/cross-app.ts';
import { explainFailure } from '../../../lib/oauth/explain.ts';
import { BaseProvider, CLIENT_NAME, omitUndefined } from './base.ts';

/** The last answer a fetch got, read again for its OAuth error (RFC 6749 §5.2). */
interface Answer {
  url: string;
  status: number;
  error?: string;
  description?: string;
}

async function answerOf(url: string, response: Response): Promise<Answer> {
  let body: { error?: unknown; error_description?: unknown } = {};
  try {
    body = (await response.clone().json()) as typeof body;
  } catch {
    // Not JSON: the status says what there is to say.
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return { url, status: response.status, error: text(body?.error), description: text(body?.error_description) };
}

const grantOf = (body: unknown): string | null => (body instanceof URLSearchParams ? body : new URLSearchParams(typeof body === 'string' ? body : '')).get('grant_type');

/** The failure as the error the SDK's auth() throws on: its name, then what to do. */
const namedError = (failure: CrossAppFailure): Error => {
  const { name, hint } = explainCrossApp(failure);
  return new Error(`${name}: ${hint}`);
};

export class CrossAppAccessWrapper extends BaseProvider {
  private inner?: CrossAppAccessProvider;
  /** The transport's fetch (the session's recording one), for the IdP too. */
  private fetchFn?: FetchLike;
  /** What the authorization server will check the assertion against. */
  private expected?: { issuer: string; resource?: string };
  /** The claims of the last assertion the IdP issued, to name a refusal of it. */
  private assertion?: JwtClaims;

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return omitUndefined({ client_name: CLIENT_NAME, redirect_uris: [], grant_types: [JWT_BEARER_GRANT], token_endpoint_auth_method: 'client_secret_basic', scope: this.options.scope });
  }

  /** The grant must be on offer (SEP-990 §5): said before a request the authorization server would refuse. */
  protected checkMetadata(state: OAuthDiscoveryState): void {
    const grants = state.authorizationServerMetadata?.grant_types_supported;
    if (!grantListed(grants)) throw this.fail('authorization-server-metadata', { kind: 'grant-not-supported', grants });
  }

  /**
   * After discovery (awaited by auth()): the v2 provider is made once, bound to the authorization
   * server found first (its `expectedIssuer`, as the client_credentials grant does), and told where
   * it signs in and for which resource.
   */
  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    super.saveDiscoveryState(state);
    const { CrossAppAccessProvider } = await import('@modelcontextprotocol/client');
    this.inner ??= new CrossAppAccessProvider({
      clientId: this.options.clientId ?? '',
      clientSecret: this.options.clientSecret ?? '',
      clientName: CLIENT_NAME,
      expectedIssuer: state.authorizationServerUrl,
      // Late-bound: each connect attempt has a recording fetch of its own.
      fetchFn: (url, init) => (this.fetchFn ?? fetch)(url, init),
      assertion: (context) => this.identityAssertion(context),
    });
    this.inner.saveAuthorizationServerUrl(state.authorizationServerUrl);
    const resource = state.resourceMetadata?.resource;
    if (resource) this.inner.saveResourceUrl?.(resource);
    this.expected = { issuer: state.authorizationServerMetadata?.issuer ?? state.authorizationServerUrl, resource };
  }

  /** The user's ID token: read from its file at each exchange (a script may renew it), else as given. */
  private idToken(): string {
    const { idTokenFile } = this.options;
    if (idTokenFile) {
      try {
        return readFileSync(idTokenFile, 'utf8').trim();
      } catch (error) {
        throw new Error(`Cross-app access: cannot read the ID token from ${idTokenFile} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
      }
    }
    const token = this.options.idp?.idToken;
    if (!token) throw this.fail('token-exchange', { kind: 'cross-app-settings', missing: ['the ID token'] });
    return token;
  }

  /** The token exchange at the IdP (RFC 8693), by the SDK; its answer judged and told to the trace. */
  private async identityAssertion(context: CrossAppAccessContext): Promise<string> {
    const idp = this.options.idp ?? {};
    const idToken = this.idToken();
    const decoded = decodeJwt(idToken);
    if (decoded.ok && decoded.claims.exp !== undefined && decoded.claims.exp * 1000 <= this.now()) throw this.fail('token-exchange', { kind: 'id-token-expired', expiredAt: decoded.claims.exp * 1000 });
    const sdk = await import('@modelcontextprotocol/client');
    let last: Answer | undefined;
    const fetchFn = async (url: string | URL, init?: RequestInit) => {
      const response = await context.fetchFn(url, init);
      if (!response.ok) last = await answerOf(String(url), response);
      return response;
    };
    const audience = this.expected?.issuer ?? context.authorizationServerUrl;
    const common = { audience, resource: context.resourceUrl, idToken, clientId: idp.clientId ?? '', clientSecret: idp.clientSecret, scope: context.scope, fetchFn };
    let grant: string;
    try {
      const result = idp.tokenEndpoint ? await sdk.requestJwtAuthorizationGrant({ ...common, tokenEndpoint: idp.tokenEndpoint }) : await sdk.discoverAndRequestJwtAuthGrant({ ...common, idpUrl: idp.url ?? '' });
      grant = result.jwtAuthGrant;
    } catch (error) {
      if (last) throw this.fail('token-exchange', tokenExchangeFailure(last));
      const message = error instanceof Error ? error.message : String(error);
      throw this.fail('token-exchange', { kind: 'id-jag-invalid', problem: `The token exchange at the IdP failed: ${message}.` });
    }
    this.noteAssertion(grant, audience);
    return grant;
  }

  private noteAssertion(grant: string, audience: string): void {
    const decoded = decodeJwt(grant);
    this.assertion = decoded.ok ? decoded.claims : undefined;
    if (!decoded.ok) {
      this.step('token-exchange', 'passed', `The IdP issued an identity assertion, but Loupe cannot read it: ${decoded.error}.`);
      return;
    }
    const claims = decoded.claims;
    const problems = assertionProblems(claims, { issuer: audience, resource: this.expected?.resource, clientId: this.options.clientId, now: this.now() });
    const life = claims.exp !== undefined ? `, valid ${Math.round(claims.exp - this.now() / 1000)} s` : '';
    const facts = `for audience ${claims.aud.join(', ') || '(none)'}${claims.resource ? ` and resource ${claims.resource}` : ''}${life}`;
    this.step('token-exchange', 'passed', `The IdP issued an identity assertion (ID-JAG) ${facts}${problems.length ? `; but ${problems.map(describeProblem).join('; ')}` : ''}.`);
  }

  /** The error auth() is to throw, its name kept for the sign-in's state (reportFailure). */
  private fail(step: string, failure: CrossAppFailure): Error {
    const error = namedError(failure);
    this.named = explainCrossApp(failure);
    this.step(step, 'failed', error.message);
    return error;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.inner) return this.inner.clientInformation() as OAuthClientInformationMixed;
    return this.options.clientId ? { client_id: this.options.clientId, ...(this.options.clientSecret ? { client_secret: this.options.clientSecret } : {}) } : undefined;
  }

  /** Never called for a configured client (nothing registers without a redirect URI); kept for the interface. */
  saveClientInformation(): void {}

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    if (!this.inner) throw new Error('Cross-app access: the authorization server is not known yet (discovery has not run).');
    return this.inner.prepareTokenRequest(scope);
  }

  /** Reads the authorization server's answer to the jwt-bearer request, to name a refusal (the SDK only throws its words). */
  watchChallenges(fetchFn: FetchLike): FetchLike {
    this.fetchFn = fetchFn;
    const watched = super.watchChallenges(fetchFn);
    return async (input, init) => {
      const response = await watched(input, init);
      if (!response.ok && grantOf(init?.body) === JWT_BEARER_GRANT) this.noteRefusal(await answerOf(String(input), response));
      return response;
    };
  }

  private noteRefusal(answer: Answer): void {
    const expected = this.expected;
    const problems = this.assertion && expected ? assertionProblems(this.assertion, { ...expected, clientId: this.options.clientId, now: this.now() }) : [];
    const failure = answer.error === 'invalid_client' ? { kind: 'token-refused' as const, status: answer.status, error: answer.error, description: answer.description } : jwtBearerFailure({ ...answer, problems });
    this.named = explainFailure(failure);
    this.step('jwt-bearer-grant', 'failed', `${this.named.name}: ${this.named.hint}`);
  }

  redirectToAuthorization(): void {
    throw new Error('Cross-app access never opens an authorization page.');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new Error('Cross-app access uses no PKCE verifier.');
  }

  protected tokenKind(): 'token-request' {
    return 'token-request';
  }

  protected dropSignIns(): void {
    this.inner = undefined;
    this.assertion = undefined;
  }
}
