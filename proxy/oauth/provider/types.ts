/**
 * What a session knows of Loupe's OAuth provider (provider.ts), and what the grants (base.ts,
 * code.ts, machine.ts) are built to: the options, the hooks the session gives, the steps told to
 * the trace, and the provider's interface beyond the SDK's `OAuthClientProvider`. Types only, so
 * that the grants and the entry both take them from here and the arrows run one way.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthSettings, OAuthState } from '../../../lib/wire/oauth.ts';
import type { CredentialStore } from '../store.ts';

/** The settings, and what only the command line gives: a private key, and the file an ID token is read from at each exchange. */
export type OAuthOptions = OAuthSettings & { privateKeyPem?: string; signingAlg?: string; clientCredentials?: boolean; idTokenFile?: string };

/** A step of signing in, for the trace (`auth` events); never carries a token, code or secret. */
export interface AuthStep {
  step: string;
  status: 'info' | 'passed' | 'failed';
  message: string;
}

export interface ProviderHooks {
  /** Loupe's callback URL (UI: its own `/oauth/callback`; headless: HEADLESS_REDIRECT_URL). */
  redirectUrl: string;
  /** A sign-in needs the authorization page opened (the URL carries no secret). */
  onAuthorizationUrl(url: URL): void;
  /** authState() changed. */
  onChange(): void;
  /** Persistence across launches (../store.ts), when the user turned it on. */
  store?: CredentialStore;
  onStep?(step: AuthStep): void;
  /** For tests: the clock. */
  now?(): number;
}

export interface LoupeAuthProvider extends OAuthClientProvider {
  /** What the page may know (SessionInfo.auth). */
  authState(): OAuthState;
  /** The authorization page of the sign-in waiting for its code, if any. */
  pendingAuthorization(): URL | undefined;
  /** The `state` of that sign-in: the callback that carries it is the one to accept. */
  expectedState(): string | undefined;
  /** Accepts a callback's `state` once, selecting its PKCE verifier for the exchange; false when unknown, used or expired. */
  takeState(state: string): boolean;
  /** Gives up a sign-in (cancelled, timed out, or made needless by another one). */
  cancelAuthorization(state: string): void;
  /**
   * Wraps the transport's fetch to read the server's challenges: a 403 `insufficient_scope` asks for
   * a new sign-in, not a refresh (see noteStepUp), and client_credentials asks for the scope named.
   */
  watchChallenges(fetchFn: FetchLike): FetchLike;
  /** Records why signing in failed (the SDK throws to its caller, not to the provider). */
  reportFailure(error: string, hint?: string): void;
  /** Forget credentials: tokens, the registered client and the secret, in memory and on disk. */
  forget(): Promise<void>;
}
