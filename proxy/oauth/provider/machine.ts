/**
 * The client_credentials grant (SEP-1046) for Loupe's OAuth provider (provider.ts): the SDK's
 * ClientCredentialsProvider (a client secret) or PrivateKeyJwtProvider (private_key_jwt) makes the
 * token request; this keeps the tokens, the page's view and forget as for the other grant.
 */
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { AddClientAuthentication, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { BaseProvider, CLIENT_NAME, omitUndefined, unionScopes } from './base.ts';
import type { OAuthOptions, ProviderHooks } from './types.ts';

/** client_credentials (SEP-1046): the SDK's providers do the grant; this keeps tokens, state and forget. */
export class ClientCredentialsWrapper extends BaseProvider {
  private inner?: ClientCredentialsProvider | PrivateKeyJwtProvider;
  readonly addClientAuthentication?: AddClientAuthentication;

  constructor(options: OAuthOptions, hooks: ProviderHooks) {
    super(options, hooks);
    if (options.privateKeyPem) this.addClientAuthentication = (headers, params, url, metadata) => (this.sdkProvider() as PrivateKeyJwtProvider).addClientAuthentication(headers, params, url, metadata);
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return omitUndefined({
      client_name: CLIENT_NAME,
      redirect_uris: [],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: this.options.privateKeyPem ? 'private_key_jwt' : 'client_secret_basic',
      scope: this.options.scope,
    });
  }

  /**
   * The SDK provider, made once the authorization server is known: its `expectedIssuer` binds the
   * credentials to the server that discovery found first (trust on first use — the SDK's own
   * behaviour without one, minus its warning); a later, different one is refused by the SDK.
   */
  private sdkProvider(issuer: string | undefined = this.authorizationServer): ClientCredentialsProvider | PrivateKeyJwtProvider {
    if (!this.inner) {
      const common = { clientId: this.options.clientId ?? '', clientName: CLIENT_NAME, scope: this.options.scope, ...(issuer ? { expectedIssuer: issuer } : {}) };
      this.inner = this.options.privateKeyPem
        ? new PrivateKeyJwtProvider({ ...common, privateKey: this.options.privateKeyPem, algorithm: this.options.signingAlg ?? 'ES256' })
        : new ClientCredentialsProvider({ ...common, clientSecret: this.options.clientSecret ?? '' });
    }
    return this.inner;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    super.saveDiscoveryState(state);
    this.sdkProvider(state.authorizationServerUrl);
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (!this.inner) return this.options.clientId ? { client_id: this.options.clientId } : undefined;
    return this.inner.clientInformation();
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.sdkProvider().saveClientInformation(info);
  }

  /**
   * The SDK passes the configured scope only (`clientMetadata.scope`), so a 403 asking for more
   * would get the same token again; the challenge's scope is asked for as well.
   */
  prepareTokenRequest(scope?: string): URLSearchParams {
    return this.sdkProvider().prepareTokenRequest(unionScopes(scope, this.challengeScope));
  }

  redirectToAuthorization(): void {
    throw new Error('client_credentials never opens an authorization page.');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new Error('client_credentials uses no PKCE verifier.');
  }

  protected tokenKind(): 'token-request' {
    return 'token-request';
  }

  protected dropSignIns(): void {
    // A forgotten client's issuer binding goes too: the next sign-in binds afresh.
    this.inner = undefined;
  }
}
