/**
 * The OAuth failures seen in the field, each with a name a person can search for and a hint that
 * says what to change (issue 11, "Guided mode"). The guided flow (proxy/oauth/guided/guided.ts) finds
 * the facts — what was asked, what came back — and this turns them into words; pure, so that every
 * explanation is tested and the same words can serve the connect path and the CLI.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */
import { explainCrossApp, type CrossAppFailure } from './cross-app.ts';

export interface Explanation {
  /** Short and stable, e.g. "Protected resource metadata not found (PRM 404)". */
  name: string;
  /** One or two sentences: what happened and what to do. */
  hint: string;
}

/** One URL tried and what came back (an HTTP status, or what went wrong instead). */
export interface Tried {
  url: string;
  status?: number;
  error?: string;
}

export type OAuthFailure =
  | { kind: 'network'; url: string; error: string }
  | { kind: 'not-json'; url: string; what: string; status?: number; contentType?: string }
  | { kind: 'wrong-content-type'; url: string; contentType?: string; expected: string }
  | { kind: 'unexpected-status'; url: string; status: number; expected: string }
  | { kind: 'not-protected'; url: string; status: number }
  | { kind: 'prm-not-found'; tried: Tried[]; fromHeader: boolean }
  | { kind: 'prm-invalid'; url: string; problems: string[] }
  | { kind: 'no-authorization-servers'; url: string }
  | { kind: 'resource-mismatch'; resource: string; serverUrl: string }
  | { kind: 'as-metadata-not-found'; authorizationServer: string; tried: Tried[] }
  | { kind: 'as-metadata-incomplete'; url: string; missing: string[] }
  | { kind: 'issuer-mismatch'; issuer: string; expected: string; url: string }
  | { kind: 'no-pkce-methods'; url: string }
  | { kind: 'no-s256'; methods: string[] }
  | { kind: 'no-code-response-type'; types: string[] }
  | { kind: 'no-registration'; redirectUrl: string }
  | { kind: 'client-metadata-document'; url: string; problem: string }
  | { kind: 'registration-refused'; status?: number; error?: string; description?: string }
  | { kind: 'redirect-not-allowed'; redirectUrl: string; status?: number; description?: string }
  | { kind: 'authorization-refused'; error: string; description?: string }
  | { kind: 'callback-failed'; reason: string }
  | { kind: 'scope-refused'; scope?: string; description?: string; scopesSupported?: string[] }
  | { kind: 'token-refused'; status?: number; error?: string; description?: string }
  | { kind: 'token-response-invalid'; problem: string }
  | { kind: 'token-audience'; resource?: string; description?: string }
  | { kind: 'insufficient-scope'; scope?: string; granted?: string }
  | { kind: 'not-initialize'; problem: string }
  | CrossAppFailure;

const said = (description: string | undefined): string => (description ? ` (it said: “${description}”)` : '');
const statusOf = (t: Tried): string => (t.status !== undefined ? String(t.status) : (t.error ?? 'no answer'));
const triedList = (tried: Tried[]): string => tried.map((t) => `${t.url} → ${statusOf(t)}`).join('; ');

/** A redirect URI refusal is reported as invalid_request with words about the redirect (RFC 6749 §4.1.2.1). */
export function looksLikeRedirectRefusal(error: string | undefined, description: string | undefined): boolean {
  return /redirect/i.test(`${description ?? ''}`) || error === 'invalid_redirect_uri';
}

function explainDiscovery(f: Extract<OAuthFailure, { kind: 'prm-not-found' | 'prm-invalid' | 'no-authorization-servers' | 'resource-mismatch' | 'as-metadata-not-found' | 'as-metadata-incomplete' | 'issuer-mismatch' | 'no-pkce-methods' | 'no-s256' | 'no-code-response-type' }>): Explanation {
  switch (f.kind) {
    case 'prm-not-found':
      return {
        name: 'Protected resource metadata not found (PRM 404)',
        hint: f.fromHeader
          ? `The 401's resource_metadata URL gives no metadata (${triedList(f.tried)}). Serve the RFC 9728 document at that URL, or correct the URL the server puts in WWW-Authenticate.`
          : `No RFC 9728 document at the well-known URLs (${triedList(f.tried)}). Serve it at /.well-known/oauth-protected-resource plus the server's path, or name its URL in the 401's WWW-Authenticate resource_metadata parameter.`,
      };
    case 'prm-invalid':
      return { name: 'Protected resource metadata invalid', hint: `The document at ${f.url} is not RFC 9728 metadata: ${f.problems.join('; ')}. Fix those fields in the server's metadata.` };
    case 'no-authorization-servers':
      return { name: 'No authorization server named', hint: `The protected resource metadata at ${f.url} has no authorization_servers, so a client cannot tell where to sign in. List the authorization server's issuer URL there.` };
    case 'resource-mismatch':
      return {
        name: '`resource` mismatch',
        hint: `The metadata says resource ${f.resource}, but the server is ${f.serverUrl}: RFC 9728 §3.3 says a client must not use metadata for another resource. Set resource to the server's URL (a proxy or load balancer that rewrites the host, scheme or path is the usual cause).`,
      };
    case 'as-metadata-not-found':
      return {
        name: 'Authorization server metadata not found',
        hint: `No RFC 8414 or OpenID Connect metadata for ${f.authorizationServer} (${triedList(f.tried)}). Serve it at one of those URLs, or correct authorization_servers in the protected resource metadata.`,
      };
    case 'as-metadata-incomplete':
      return { name: 'Authorization server metadata incomplete', hint: `The metadata at ${f.url} lacks ${f.missing.join(', ')}, which a client needs to sign in. Add them to the authorization server's metadata.` };
    case 'issuer-mismatch':
      return {
        name: 'Metadata served from the wrong origin (issuer mismatch)',
        hint: `The metadata at ${f.url} says issuer ${f.issuer}, but it was fetched for ${f.expected}; RFC 8414 §3.3 says a client must then not use it. Make the issuer the authorization server's public URL, or make authorization_servers name that same URL.`,
      };
    case 'no-pkce-methods':
      return {
        name: 'Missing code_challenge_methods_supported',
        hint: `The authorization server metadata at ${f.url} does not say it supports PKCE, and MCP clients must refuse to go on without it. Add "code_challenge_methods_supported": ["S256"] to the metadata (and support PKCE S256).`,
      };
    case 'no-s256':
      return { name: 'PKCE S256 not offered', hint: `The authorization server offers PKCE ${f.methods.join(', ') || '(none)'} but not S256, which MCP requires. Enable S256 on the authorization server.` };
    case 'no-code-response-type':
      return { name: 'Authorization code flow not offered', hint: `response_types_supported is ${f.types.join(', ') || 'empty'}: without "code" there is no authorization code flow. Enable it on the authorization server.` };
  }
}

function explainClient(f: Extract<OAuthFailure, { kind: 'no-registration' | 'client-metadata-document' | 'registration-refused' | 'redirect-not-allowed' | 'authorization-refused' | 'callback-failed' }>): Explanation {
  switch (f.kind) {
    case 'no-registration':
      return {
        name: 'No way to register Loupe',
        hint: `The authorization server has no registration_endpoint (dynamic registration) and no client ID metadata document support, and no client ID is set. Register a client for the redirect URI ${f.redirectUrl} and enter its Client ID (and secret) in the OAuth settings.`,
      };
    case 'client-metadata-document':
      return { name: 'Client ID metadata document unusable', hint: `${f.url}: ${f.problem}. Fix the document, or clear Client metadata URL to register dynamically.` };
    case 'registration-refused':
      return {
        name: 'Dynamic client registration refused',
        hint: `The registration endpoint answered ${f.status ?? 'an error'}${f.error ? ` ${f.error}` : ''}${said(f.description)}. If the server only allows pre-registered clients, enter a Client ID in the OAuth settings.`,
      };
    case 'redirect-not-allowed':
      return {
        name: 'Redirect URI not allowed',
        hint: `The authorization server refuses the redirect URI ${f.redirectUrl}${f.status !== undefined ? ` (HTTP ${f.status})` : ''}${said(f.description)}. Register exactly that URI for the client (port included), or clear Client ID so that Loupe registers itself with it.`,
      };
    case 'authorization-refused':
      return f.error === 'access_denied'
        ? { name: 'Sign-in refused (access_denied)', hint: `The authorization server or the person signing in refused${said(f.description)}. Start again and approve, or check that this account may use the server.` }
        : { name: `Authorization refused (${f.error})`, hint: `The authorization server answered ${f.error}${said(f.description)}. Check the client ID, scope and redirect URI the authorization URL carries.` };
    case 'callback-failed':
      return { name: 'No authorization code came back', hint: `${f.reason} Open the authorization URL again (Start guided flow), finish signing in, and make sure the browser can reach Loupe's callback.` };
  }
}

function explainToken(f: Extract<OAuthFailure, { kind: 'scope-refused' | 'token-refused' | 'token-response-invalid' | 'token-audience' | 'insufficient-scope' | 'not-initialize' }>): Explanation {
  switch (f.kind) {
    case 'scope-refused':
      return {
        name: 'Scopes refused (invalid_scope)',
        hint: `The authorization server will not grant ${f.scope ? `“${f.scope}”` : 'the scopes asked for'}${said(f.description)}. Set Scope in the OAuth settings to scopes this client may have${f.scopesSupported?.length ? ` (the server lists ${f.scopesSupported.join(' ')})` : ''}, or allow them for the client.`,
      };
    case 'token-refused':
      if (f.error === 'invalid_client') {
        return { name: 'Client authentication failed (invalid_client)', hint: `The token endpoint does not accept this client's credentials${said(f.description)}. Check Client ID and Client secret, and the authentication methods the server supports.` };
      }
      if (f.error === 'invalid_grant') {
        return { name: 'Code refused (invalid_grant)', hint: `The token endpoint refused the code${said(f.description)}. Codes are single-use and short-lived, and the redirect URI and PKCE verifier must match the authorization request: start the flow again.` };
      }
      return { name: 'Token request refused', hint: `The token endpoint answered ${f.status ?? 'an error'}${f.error ? ` ${f.error}` : ''}${said(f.description)}. Check the authorization server's logs for this client.` };
    case 'token-response-invalid':
      return { name: 'Token response invalid', hint: `${f.problem} A token response is JSON with access_token and token_type "Bearer" (RFC 6749 §5.1).` };
    case 'token-audience':
      return {
        name: 'Token audience wrong',
        hint: `The token request succeeded but the MCP server refuses the token (401 invalid_token)${said(f.description)}: it was most likely issued for another resource. Make the authorization server honour the RFC 8707 resource parameter${f.resource ? ` (Loupe sent ${f.resource})` : ''}, or make the server accept tokens issued for it.`,
      };
    case 'insufficient-scope':
      return {
        name: 'Token lacks a scope (insufficient_scope)',
        hint: `The MCP server wants ${f.scope ? `scope “${f.scope}”` : 'a wider scope'}${f.granted ? ` but the token has “${f.granted}”` : ''}. Set Scope in the OAuth settings to include it and run the flow again.`,
      };
    case 'not-initialize':
      return { name: 'Not an initialize result', hint: `${f.problem} With a valid token the server must answer initialize like any MCP server; check what handles authenticated requests.` };
  }
}

/** The named explanation of a failure. */
export function explainFailure(f: OAuthFailure): Explanation {
  switch (f.kind) {
    case 'network':
      return { name: 'Cannot reach the server', hint: `Loupe could not reach ${f.url} (${f.error}). Check the URL, that the server is running, and any proxy or firewall in between.` };
    case 'not-json':
      return {
        name: 'Not JSON',
        hint: `${f.url} answered${f.status !== undefined ? ` ${f.status}` : ''} with ${f.contentType ? `“${f.contentType}”` : 'no content type'} that is not JSON, where ${f.what} must be. A login or error page in its place usually means a wrong URL or a proxy in the way.`,
      };
    case 'wrong-content-type':
      return { name: 'Wrong content type', hint: `${f.url} answered with ${f.contentType ? `“${f.contentType}”` : 'no content type'}; ${f.expected} is expected. Fix the content type the server sends.` };
    case 'unexpected-status':
      return { name: `Unexpected HTTP ${f.status}`, hint: `${f.url} answered ${f.status} where ${f.expected} was expected. See the response below for the server's reason.` };
    case 'not-protected':
      return f.status >= 200 && f.status < 300
        ? { name: 'No sign-in asked for', hint: `${f.url} answered ${f.status} without a token: this server does not require OAuth. If it should, check that its authorization runs before the MCP handler.` }
        : { name: `Unexpected HTTP ${f.status}`, hint: `${f.url} answered ${f.status} to a request without a token; a protected MCP server answers 401 with a WWW-Authenticate header. Check the URL and the server's logs.` };
    case 'prm-not-found':
    case 'prm-invalid':
    case 'no-authorization-servers':
    case 'resource-mismatch':
    case 'as-metadata-not-found':
    case 'as-metadata-incomplete':
    case 'issuer-mismatch':
    case 'no-pkce-methods':
    case 'no-s256':
    case 'no-code-response-type':
      return explainDiscovery(f);
    case 'no-registration':
    case 'client-metadata-document':
    case 'registration-refused':
    case 'redirect-not-allowed':
    case 'authorization-refused':
    case 'callback-failed':
      return explainClient(f);
    case 'cross-app-settings':
    case 'id-token-expired':
    case 'idp-refused':
    case 'id-jag-invalid':
    case 'assertion-audience':
    case 'assertion-expired':
    case 'assertion-refused':
    case 'grant-not-supported':
      return explainCrossApp(f);
    default:
      return explainToken(f);
  }
}

// ---------------------------------------------------------------------------------------------
// From what a server answered to the failure it is: the rules the guided flow applies.

/** An OAuth error response of the token endpoint (RFC 6749 §5.2). */
export function tokenErrorFailure(facts: { status?: number; error?: string; description?: string; scope?: string; scopesSupported?: string[] }): OAuthFailure {
  if (facts.error === 'invalid_scope') return { kind: 'scope-refused', scope: facts.scope, description: facts.description, scopesSupported: facts.scopesSupported };
  return { kind: 'token-refused', status: facts.status, error: facts.error, description: facts.description };
}

/** What the authorization endpoint answered instead of a consent page, or the callback instead of a code (RFC 6749 §4.1.2.1). */
export function authorizationErrorFailure(facts: { redirectUrl: string; status?: number; error?: string; description?: string; scope?: string }): OAuthFailure {
  if (looksLikeRedirectRefusal(facts.error, facts.description)) return { kind: 'redirect-not-allowed', redirectUrl: facts.redirectUrl, status: facts.status, description: facts.description };
  if (facts.error === 'invalid_scope') return { kind: 'scope-refused', scope: facts.scope, description: facts.description };
  return { kind: 'authorization-refused', error: facts.error ?? (facts.status !== undefined ? `HTTP ${facts.status}` : 'an error'), description: facts.description };
}

/**
 * The MCP server refused a request that carried the new token (RFC 6750 §3.1): after a good token
 * request, 401 means the token is not for this server (its audience), 403 insufficient_scope that
 * it lacks a scope.
 */
export function bearerRejectionFailure(facts: { url: string; status: number; error?: string; description?: string; scope?: string; granted?: string; resource?: string }): OAuthFailure {
  if (facts.status === 401) return { kind: 'token-audience', resource: facts.resource, description: facts.description };
  if (facts.status === 403 && (facts.error === 'insufficient_scope' || facts.scope !== undefined)) return { kind: 'insufficient-scope', scope: facts.scope, granted: facts.granted };
  return { kind: 'unexpected-status', url: facts.url, status: facts.status, expected: '200 with the initialize result' };
}
