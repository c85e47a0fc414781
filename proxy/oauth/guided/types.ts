/**
 * What the guided OAuth flow's parts share (issue 11): what the flow needs of the proxy (the web
 * face gives it), what a step is given to run with, and what it concludes. guided.ts, steps.ts
 * and mcp.ts take them from here, so that the machine calls the steps and the steps the requests,
 * and nothing calls back up.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AuthorizationServerMetadata, OAuthClientInformationMixed, OAuthProtectedResourceMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { JwtClaims } from '../../../lib/oauth/cross-app.ts';
import type { OAuthFailure } from '../../../lib/oauth/explain.ts';
import type { OAuthSettings } from '../../../lib/wire/oauth.ts';
import type { ExchangeRecorder } from './fetch.ts';

/** What Loupe's callback route received for the flow's state. */
export type CallbackResult = { ok: true; code: string } | { ok: false; error: string; oauthError?: string; description?: string };

/** What the flow needs of the proxy (proxy/faces/web/oauth.ts gives it). */
export interface GuidedContext {
  /** The MCP server's URL. */
  serverUrl: string;
  /** The server's configured headers (a configured Authorization is left out of the requests). */
  headers?: Record<string, string>;
  /** Header names the user marked secret: masked in the exchanges whatever they are called. */
  secretHeaders?: readonly string[];
  /**
   * How to sign in (a pre-registered client, a client metadata URL, scopes, the IdP of cross-app
   * access); may hold the client secret, the IdP's and the ID token, or the file the token is read from.
   */
  settings: OAuthSettings & { idTokenFile?: string };
  /** Loupe's callback route, registered as the redirect URI. */
  redirectUrl: string;
  fetch?: FetchLike;
  /** Waits for the authorization server's redirect to the callback with this state. */
  awaitCallback(state: string, where: string): Promise<CallbackResult>;
  cancelCallback(state: string, why: string): void;
  /** Writes an `auth` trace event of the session. */
  record(event: { step: string; status: 'info' | 'passed' | 'failed'; message: string }): void;
  /** Per HTTP request (default 30 s). */
  timeoutMs?: number;
}

/** What a step concluded. */
export type StepOutcome =
  | { status: 'passed' | 'skipped'; verdict: string; authorizationUrl?: string }
  | { status: 'failed'; verdict: string; failure?: OAuthFailure; authorizationUrl?: string };

/** What the flow has learnt so far; the secrets in it stay in the proxy. */
export interface FlowMemory {
  challenge?: string;
  resourceMetadataUrl?: URL;
  challengeScope?: string;
  prm?: OAuthProtectedResourceMetadata;
  authorizationServer?: string;
  metadata?: AuthorizationServerMetadata;
  client?: OAuthClientInformationMixed;
  scope?: string;
  state?: string;
  codeVerifier?: string;
  code?: string;
  tokens?: OAuthTokens;
  /** Cross-app access: the ID token sent (when read from a file), the identity assertion the IdP issued and its claims. */
  idToken?: string;
  assertion?: string;
  assertionClaims?: JwtClaims;
}

/** One step: what the page shows before it runs, and how it runs. */
export interface StepSpec {
  title: string;
  expects: string;
  reference: string;
  run(run: StepRun): Promise<StepOutcome>;
}

export interface StepRun {
  ctx: GuidedContext;
  mem: FlowMemory;
  http: ExchangeRecorder;
}
