/**
 * OAuth on the wire (issue 11): what the page may know of a session's sign-in, the settings it
 * may send, and the guided flow's steps. Tokens and client secrets never appear here: the proxy
 * holds them (proxy/oauth/provider/provider.ts); the page sees whether they exist, their scope and expiry.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */
import { z } from 'zod';

/**
 * Cross-app access (Enterprise-Managed Authorization, SEP-990): the enterprise identity provider
 * (IdP) that turns the user's ID token into an identity assertion grant (ID-JAG) by token exchange
 * (RFC 8693), which the server's authorization server trades for an access token (the jwt-bearer
 * grant, RFC 7523). The ID token and the IdP client secret are sent by the page once, when typed
 * (an empty string clears one); the proxy keeps them and the page is told only that they are set.
 * https://github.com/modelcontextprotocol/ext-auth/blob/main/specification/stable/enterprise-managed-authorization.mdx
 */
export const IdpSettingsSchema = z.object({
  /** The IdP's token endpoint, where the token exchange is posted. */
  tokenEndpoint: z.string().optional(),
  /** The IdP's issuer URL, whose metadata names the token endpoint (when tokenEndpoint is not given). */
  url: z.string().optional(),
  /** Loupe's client id at the IdP. */
  clientId: z.string().optional(),
  /** Loupe's client secret at the IdP, when it is a confidential client there. */
  clientSecret: z.string().optional(),
  /** The user's ID token from the IdP: the subject token of the exchange. */
  idToken: z.string().optional(),
});
export type IdpSettings = z.infer<typeof IdpSettingsSchema>;

/** What the page is shown of the IdP settings: the secrets only as "set". */
export const IdpViewSchema = IdpSettingsSchema.omit({ clientSecret: true, idToken: true }).extend({
  hasClientSecret: z.boolean().optional(),
  hasIdToken: z.boolean().optional(),
});
export type IdpView = z.infer<typeof IdpViewSchema>;

/** How Loupe signs in to a server; everything optional (discovery and registration fill the rest). */
export const OAuthSettingsSchema = z.object({
  /** A pre-registered client id (else a client ID metadata document or dynamic registration). */
  clientId: z.string().optional(),
  /**
   * Sent by the page once, when typed; the proxy keeps it and the page is shown only that one is
   * set (`OAuthState.hasClientSecret`). An empty string clears it.
   */
  clientSecret: z.string().optional(),
  /** An HTTPS URL of a client ID metadata document, used as the client id where the server supports it. */
  clientMetadataUrl: z.string().optional(),
  /** Scopes to ask for (space-separated); default: the challenge's, else the server's `scopes_supported`. */
  scope: z.string().optional(),
  /**
   * `client_credentials` for a machine client (needs a client id and secret); `cross_app_access`
   * for an access token from an enterprise IdP's assertion (needs `idp`, a client id and secret).
   * Default: authorization code.
   */
  grant: z.enum(['authorization_code', 'client_credentials', 'cross_app_access']).optional(),
  /** The IdP of `cross_app_access`. */
  idp: IdpSettingsSchema.optional(),
});
export type OAuthSettings = z.infer<typeof OAuthSettingsSchema>;

export const OAuthPhaseSchema = z.enum([
  /** No sign-in needed, or not tried yet. */
  'none',
  /** Discovery, registration or a token request is running. */
  'working',
  /** The authorization page must be opened by the user (`authorizationUrl`). */
  'waiting-for-user',
  'signed-in',
  'failed',
]);
export type OAuthPhase = z.infer<typeof OAuthPhaseSchema>;

/** A session's sign-in as the page sees it (SessionInfo.auth). */
export const OAuthStateSchema = z.object({
  phase: OAuthPhaseSchema,
  /** The authorization request to open (phase `waiting-for-user`); it carries no secret (PKCE sends the challenge, not the verifier). */
  authorizationUrl: z.string().optional(),
  /** The authorization server's issuer or URL, for the words "Sign in at …". */
  authorizationServer: z.string().optional(),
  clientId: z.string().optional(),
  hasClientSecret: z.boolean().optional(),
  /** Granted scopes (from the token response). */
  scope: z.string().optional(),
  /** Milliseconds since the epoch when the access token expires, when the server said. */
  expiresAt: z.number().optional(),
  hasRefreshToken: z.boolean().optional(),
  /** One plain sentence when phase is `failed` (and a hint). */
  error: z.string().optional(),
  hint: z.string().optional(),
  settings: OAuthSettingsSchema.omit({ clientSecret: true, idp: true }).extend({ idp: IdpViewSchema.optional() }).optional(),
});
export type OAuthState = z.infer<typeof OAuthStateSchema>;

// ---------------------------------------------------------------------------------------------
// The guided flow (the `OAuth` panel): one step at a time, each with its HTTP exchanges.

export const GUIDED_STEP_IDS = [
  'unauthenticated-request',
  'challenge',
  'resource-metadata',
  'authorization-server-metadata',
  'registration',
  'authorization-request',
  'callback',
  'token-request',
  'authenticated-request',
  // Cross-app access: the IdP's token exchange (RFC 8693), then the jwt-bearer grant (RFC 7523).
  'token-exchange',
  'jwt-bearer-grant',
] as const;
export const GuidedStepIdSchema = z.enum(GUIDED_STEP_IDS);
export type GuidedStepId = z.infer<typeof GuidedStepIdSchema>;

/** The paths of the guided flow: which steps, in which order (the OAuth settings' grant picks one). */
export const GUIDED_PATHS = {
  'authorization-code': ['unauthenticated-request', 'challenge', 'resource-metadata', 'authorization-server-metadata', 'registration', 'authorization-request', 'callback', 'token-request', 'authenticated-request'],
  'cross-app-access': ['unauthenticated-request', 'challenge', 'resource-metadata', 'authorization-server-metadata', 'token-exchange', 'jwt-bearer-grant', 'authenticated-request'],
} as const satisfies Record<string, readonly GuidedStepId[]>;
export type GuidedPath = keyof typeof GUIDED_PATHS;
export const GuidedPathSchema = z.enum(['authorization-code', 'cross-app-access']);

/** One HTTP request and its response, as the step made it (secret values masked by the proxy). */
export const GuidedExchangeSchema = z.object({
  method: z.string(),
  url: z.string(),
  requestHeaders: z.record(z.string(), z.string()),
  requestBody: z.string().optional(),
  status: z.number().optional(),
  responseHeaders: z.record(z.string(), z.string()).optional(),
  /** The start of the body (bounded), secrets masked. */
  responseBody: z.string().optional(),
  /** What went wrong instead of a response (DNS, refused, timeout). */
  error: z.string().optional(),
  durationMs: z.number().optional(),
});
export type GuidedExchange = z.infer<typeof GuidedExchangeSchema>;

export const GuidedStepSchema = z.object({
  id: GuidedStepIdSchema,
  title: z.string(),
  /** What the spec expects at this step, in a sentence or two. */
  expects: z.string(),
  /** A link to the part of the spec or RFC this step follows. */
  reference: z.string().optional(),
  status: z.enum(['pending', 'running', 'passed', 'failed', 'skipped']),
  /** Why it passed, failed or was skipped, in plain words. */
  verdict: z.string().optional(),
  /** For a failure seen in the field: its name (e.g. "Protected resource metadata not found") and how to fix it. */
  problem: z.object({ name: z.string(), hint: z.string() }).optional(),
  exchanges: z.array(GuidedExchangeSchema),
  /** Step `authorization-request`: the URL the next Continue opens. */
  authorizationUrl: z.string().optional(),
});
export type GuidedStep = z.infer<typeof GuidedStepSchema>;

export const GuidedFlowSchema = z.object({
  session: z.string(),
  /** Which path the steps follow (absent from a proxy before cross-app access: authorization code). */
  path: GuidedPathSchema.optional(),
  steps: z.array(GuidedStepSchema),
  /** Index of the step the next Continue runs; steps.length when done. */
  next: z.number(),
  /** The flow stopped (a failed step, or the last one passed). */
  done: z.boolean(),
});
export type GuidedFlow = z.infer<typeof GuidedFlowSchema>;

// ---------------------------------------------------------------------------------------------
// Messages. page → proxy:

/** Sets how Loupe signs in to this server; the next connect uses it. */
export const OAuthSettingsMessageSchema = z.object({ type: z.literal('oauth-settings'), session: z.string(), settings: OAuthSettingsSchema });
/** Forget credentials: tokens, the registered client and the secret of this server, in memory and on disk. */
export const OAuthForgetMessageSchema = z.object({ type: z.literal('oauth-forget'), session: z.string() });
/** The guided flow: start it over, run the next step, or stop it. */
export const OAuthGuidedMessageSchema = z.object({ type: z.literal('oauth-guided'), session: z.string(), action: z.enum(['start', 'continue', 'stop']) });

// proxy → page:

/** The guided flow of a session changed (to every tab). */
export const OAuthGuidedStateMessageSchema = z.object({ type: z.literal('oauth-guided-state'), flow: GuidedFlowSchema });
