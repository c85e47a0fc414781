/**
 * Loupe's OAuth client for one remote server (issue 11): the SDK's `OAuthClientProvider` with what
 * the SDK leaves to the application — where client information, tokens and the PKCE verifier are
 * kept, the `state` of each sign-in, Loupe's client metadata — plus what the page may know of it
 * (`authState()`, never a token or secret) and `forget()`. The protocol itself (discovery,
 * registration, PKCE, the token requests, refresh on 401, step-up on 403) is the SDK's `auth()`,
 * which `StreamableHTTPClientTransport({ authProvider })` runs.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 *
 * `grant: client_credentials` gives the SDK's ClientCredentialsProvider (a secret) or
 * PrivateKeyJwtProvider (a private key), `grant: cross_app_access` the SDK's CrossAppAccessProvider
 * (an enterprise IdP's assertion, cross-app.ts), each wrapped so that state and forget work the same.
 *
 * Naming: the SDK calls `provider.state()` for the OAuth `state` parameter, so the page's view is
 * `authState()`.
 */
import { AuthorizationCodeProvider } from './code.ts';
import { CrossAppAccessWrapper } from './cross-app.ts';
import { ClientCredentialsWrapper } from './machine.ts';
import type { LoupeAuthProvider, OAuthOptions, ProviderHooks } from './types.ts';

export { CLIENT_NAME, unionScopes } from './base.ts';
export type { AuthStep, LoupeAuthProvider, OAuthOptions, ProviderHooks } from './types.ts';

/** The provider for one server's session, per its settings. */
export function createOAuthProvider(options: OAuthOptions, hooks: ProviderHooks): LoupeAuthProvider {
  if (options.grant === 'cross_app_access') return new CrossAppAccessWrapper(options, hooks);
  const machine = options.clientCredentials === true || options.grant === 'client_credentials';
  return machine ? new ClientCredentialsWrapper(options, hooks) : new AuthorizationCodeProvider(options, hooks);
}
