/**
 * The steps of the guided OAuth flow (issue 11), each one thing a client does when signing in to
 * an MCP server, done for real with the SDK's client auth functions over a recording fetch
 * (fetch.ts), then judged: passed, skipped or failed, in plain words, with the named
 * explanation of lib/oauth/explain.ts on a failure. guided.ts runs them one at a time.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */
import { randomBytes } from 'node:crypto';
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  exchangeAuthorization,
  extractWWWAuthenticateParams,
  isHttpsUrl,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { checkResourceAllowed, resourceUrlFromServerUrl } from '@modelcontextprotocol/sdk/shared/auth-utils.js';
import type { AuthorizationServerMetadata, OAuthClientMetadata, OAuthProtectedResourceMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { authorizationErrorFailure, tokenErrorFailure, type OAuthFailure, type Tried } from '../../../lib/oauth/explain.ts';
import { isJsonType, oauthErrorOf, parseJson, type ExchangeRecorder, type RawExchange } from './fetch.ts';
import { authenticatedRequest, unauthenticatedRequest } from './mcp.ts';
import type { StepOutcome, StepRun } from './types.ts';
import { sameIssuer } from '../../../lib/oauth/issuer.ts';

export const fail = (verdict: string, failure?: OAuthFailure): StepOutcome => ({ status: 'failed', verdict, failure });
const tried = (raws: readonly RawExchange[]): Tried[] => raws.map((r) => ({ url: r.url, status: r.status, error: r.error }));

/** The SDK throws zod's error for a document of the wrong shape: its issues, in words. */
function shapeProblems(error: unknown): string[] | undefined {
  const issues = (error as { issues?: { path: PropertyKey[]; message: string }[] })?.issues;
  return Array.isArray(issues) ? issues.map((i) => `${i.path.map(String).join('.') || 'the document'}: ${i.message}`) : undefined;
}

/** What a failed metadata fetch was, from what was recorded: unreachable, not found, not JSON, an error status. */
function metadataFailure(http: ExchangeRecorder, error: unknown, what: string, notFound: (t: Tried[]) => OAuthFailure, invalid: (url: string, problems: string[]) => OAuthFailure): OAuthFailure {
  const raws = http.raws;
  const last = http.last();
  if (raws.length > 0 && raws.every((r) => r.error !== undefined)) return { kind: 'network', url: raws[0].url, error: raws[0].error! };
  if (!last || last.status === undefined || last.status === 404 || (last.status < 500 && last.status >= 400)) return notFound(tried(raws));
  if (last.status >= 300) return { kind: 'unexpected-status', url: last.url, status: last.status, expected: `200 with ${what}` };
  if (parseJson(last.text) === undefined) return { kind: 'not-json', url: last.url, what, status: last.status, contentType: last.contentType };
  return invalid(last.url, shapeProblems(error) ?? [error instanceof Error ? error.message : String(error)]);
}

/** RFC 8414 §2 fields a client cannot sign in without (issuer, the endpoints, the response types). */
const AS_REQUIRED = ['issuer', 'authorization_endpoint', 'token_endpoint', 'response_types_supported'];

/** Which of `fields` a JSON document lacks (undefined when it lacks none, or is not an object). */
function missingFields(text: string | undefined, fields: readonly string[]): string[] | undefined {
  const doc = parseJson(text);
  if (!doc || typeof doc !== 'object') return undefined;
  const missing = fields.filter((f) => !(f in doc));
  return missing.length > 0 ? missing : undefined;
}

export async function stepUnauthenticated(run: StepRun): Promise<StepOutcome> {
  const answer = await unauthenticatedRequest(run);
  if (!answer.ok) return fail(`The request did not get through: ${answer.error}.`, { kind: 'network', url: run.ctx.serverUrl, error: answer.error });
  if (answer.status !== 401) return fail(`The server answered ${answer.status}, not 401.`, { kind: 'not-protected', url: run.ctx.serverUrl, status: answer.status });
  run.mem.challenge = answer.wwwAuthenticate;
  return { status: 'passed', verdict: `The server answered 401 Unauthorized${answer.wwwAuthenticate ? ' with a WWW-Authenticate header' : ', but without a WWW-Authenticate header'}: it wants a token.` };
}

export async function stepChallenge({ mem }: StepRun): Promise<StepOutcome> {
  const header = mem.challenge;
  if (!header) return { status: 'passed', verdict: 'No WWW-Authenticate header came with the 401 (RFC 6750 asks for one). Loupe goes on with the well-known metadata URLs, as clients must.' };
  const params = extractWWWAuthenticateParams({ headers: new Headers({ 'www-authenticate': header }) } as Response);
  if (!/^bearer\b/i.test(header.trim())) return { status: 'passed', verdict: `The challenge is “${header}”, not Bearer: this server may not use OAuth. Loupe tries the well-known metadata URLs anyway.` };
  mem.resourceMetadataUrl = params.resourceMetadataUrl;
  mem.challengeScope = params.scope;
  const parts = [
    params.resourceMetadataUrl ? `names its metadata at ${params.resourceMetadataUrl.href}` : 'has no resource_metadata parameter (Loupe tries the well-known URLs)',
    params.scope ? `asks for scope “${params.scope}”` : 'names no scope',
    ...(params.error ? [`says error ${params.error}`] : []),
  ];
  return { status: 'passed', verdict: `A Bearer challenge: it ${parts.join(', ')}.` };
}

export async function stepResourceMetadata({ ctx, mem, http }: StepRun): Promise<StepOutcome> {
  const fromHeader = mem.resourceMetadataUrl !== undefined;
  let prm: OAuthProtectedResourceMetadata;
  try {
    prm = await discoverOAuthProtectedResourceMetadata(ctx.serverUrl, { resourceMetadataUrl: mem.resourceMetadataUrl }, http.fetch);
  } catch (error) {
    const failure = metadataFailure(http, error, 'protected resource metadata', (t) => ({ kind: 'prm-not-found', tried: t, fromHeader }), (url, problems) => ({ kind: 'prm-invalid', url, problems }));
    return fail('No usable protected resource metadata.', failure);
  }
  const url = http.last()?.url ?? '';
  const server = resourceUrlFromServerUrl(ctx.serverUrl).href;
  if (!checkResourceAllowed({ requestedResource: server, configuredResource: prm.resource })) {
    return fail(`The metadata is for ${prm.resource}, not for ${server}.`, { kind: 'resource-mismatch', resource: prm.resource, serverUrl: server });
  }
  const servers = prm.authorization_servers ?? [];
  if (servers.length === 0) return fail('The metadata names no authorization server.', { kind: 'no-authorization-servers', url });
  mem.prm = prm;
  mem.authorizationServer = servers[0];
  const same = new URL(prm.resource).href === server ? "the server's own URL" : `which covers ${server}`;
  const notes = [
    `resource ${prm.resource} (${same})`,
    `authorization server ${servers[0]}${servers.length > 1 ? ` (and ${servers.length - 1} more; Loupe uses the first)` : ''}`,
    prm.scopes_supported?.length ? `scopes ${prm.scopes_supported.join(' ')}` : 'no scopes_supported',
  ];
  const type = isJsonType(http.last()?.contentType) ? '' : ` Its content type is “${http.last()?.contentType ?? 'none'}”, not application/json; Loupe read it anyway.`;
  return { status: 'passed', verdict: `Found at ${url}: ${notes.join('; ')}.${type}` };
}


/**
 * The authorization server's metadata (RFC 8414, else OpenID Connect), its issuer checked against
 * the URL it was fetched for (RFC 8414 §3.3): what both paths of the flow start from.
 */
export async function discoverAuthorizationServer({ mem, http }: StepRun): Promise<{ ok: true; metadata: AuthorizationServerMetadata; url: string; kind: string } | { ok: false; outcome: StepOutcome }> {
  const issuerUrl = mem.authorizationServer!;
  const failure = (error: unknown) =>
    metadataFailure(http, error, 'authorization server metadata', (t) => ({ kind: 'as-metadata-not-found', authorizationServer: issuerUrl, tried: t }), (url, problems) => ({ kind: 'as-metadata-incomplete', url, missing: missingFields(http.last()?.text, AS_REQUIRED) ?? problems }));
  let metadata: AuthorizationServerMetadata | undefined;
  try {
    metadata = await discoverAuthorizationServerMetadata(issuerUrl, { fetchFn: http.fetch });
  } catch (error) {
    return { ok: false, outcome: fail('No usable authorization server metadata.', failure(error)) };
  }
  if (!metadata) return { ok: false, outcome: fail('No authorization server metadata at any discovery URL.', failure(undefined)) };
  const url = http.last()?.url ?? issuerUrl;
  if (!sameIssuer(metadata.issuer, issuerUrl)) return { ok: false, outcome: fail(`The metadata's issuer is ${metadata.issuer}, not ${issuerUrl}.`, { kind: 'issuer-mismatch', issuer: metadata.issuer, expected: issuerUrl, url }) };
  return { ok: true, metadata, url, kind: url.includes('openid-configuration') ? 'OpenID Connect discovery' : 'RFC 8414 metadata' };
}

export async function stepAuthorizationServer(run: StepRun): Promise<StepOutcome> {
  const found = await discoverAuthorizationServer(run);
  if (!found.ok) return found.outcome;
  const { metadata, url, kind } = found;
  if (!metadata.response_types_supported.includes('code')) return fail('The authorization server does not offer the authorization code flow.', { kind: 'no-code-response-type', types: metadata.response_types_supported });
  const methods = metadata.code_challenge_methods_supported;
  if (!methods) return fail('The metadata has no code_challenge_methods_supported.', { kind: 'no-pkce-methods', url });
  if (!methods.includes('S256')) return fail(`PKCE methods offered: ${methods.join(', ') || 'none'}; S256 is not among them.`, { kind: 'no-s256', methods });
  run.mem.metadata = metadata;
  const registration = metadata.registration_endpoint ? `registration ${metadata.registration_endpoint}` : 'no registration endpoint';
  const cimd = metadata.client_id_metadata_document_supported ? '; client ID metadata documents supported' : '';
  return { status: 'passed', verdict: `${kind} at ${url}: the issuer matches, PKCE S256 is offered; authorization ${metadata.authorization_endpoint}, token ${metadata.token_endpoint}, ${registration}${cimd}.` };
}

/** Loupe as a public client of this authorization server (RFC 7591 §2): it holds no secret of its own. */
function clientMetadata(redirectUrl: string): OAuthClientMetadata {
  return { client_name: 'MCP Loupe', redirect_uris: [redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
}

/** SEP-835's order: the user's setting, the challenge's scope, the resource's scopes_supported. */
export function chooseScope(run: StepRun): string | undefined {
  return run.ctx.settings.scope?.trim() || run.mem.challengeScope || run.mem.prm?.scopes_supported?.join(' ') || undefined;
}

async function clientMetadataDocument({ ctx, mem, http }: StepRun, url: string): Promise<StepOutcome> {
  if (!isHttpsUrl(url)) return fail('The client metadata URL is not an HTTPS URL with a path.', { kind: 'client-metadata-document', url, problem: 'a client ID metadata document must be at an HTTPS URL with a path' });
  try {
    await http.fetch(url, { headers: { accept: 'application/json' } });
  } catch {
    return fail('Loupe could not fetch the client metadata document.', { kind: 'network', url, error: http.last()?.error ?? 'no answer' });
  }
  const doc = parseJson(http.last()?.text) as { client_id?: unknown; redirect_uris?: unknown } | undefined;
  const problem = !doc || typeof doc !== 'object' ? 'it is not a JSON document' : doc.client_id !== url ? 'its client_id is not its own URL' : !Array.isArray(doc.redirect_uris) || !doc.redirect_uris.includes(ctx.redirectUrl) ? `its redirect_uris do not include ${ctx.redirectUrl}` : undefined;
  if (problem) return fail(`The client metadata document is unusable: ${problem}.`, { kind: 'client-metadata-document', url, problem });
  mem.client = { client_id: url };
  return { status: 'passed', verdict: `The authorization server supports client ID metadata documents: Loupe's client ID is ${url}, and the document lists the redirect URI.` };
}

export async function stepRegistration(run: StepRun): Promise<StepOutcome> {
  const { ctx, mem, http } = run;
  const { clientId, clientSecret, clientMetadataUrl } = ctx.settings;
  mem.scope = chooseScope(run);
  if (clientId) {
    mem.client = { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) };
    return { status: 'skipped', verdict: `No registration needed: the OAuth settings give client ID ${clientId}${clientSecret ? ' and a client secret' : ' (a public client)'}.` };
  }
  const metadata = mem.metadata!;
  if (clientMetadataUrl && metadata.client_id_metadata_document_supported) return clientMetadataDocument(run, clientMetadataUrl);
  const note = clientMetadataUrl ? ' (the server does not support client ID metadata documents, so the Client metadata URL is not used)' : '';
  if (!metadata.registration_endpoint) return fail(`No client ID is set and the authorization server offers no way to register${note}.`, { kind: 'no-registration', redirectUrl: ctx.redirectUrl });
  try {
    mem.client = await registerClient(mem.authorizationServer!, { metadata, clientMetadata: clientMetadata(ctx.redirectUrl), scope: mem.scope, fetchFn: http.fetch });
  } catch {
    const last = http.last();
    if (last?.error) return fail('The registration request did not get through.', { kind: 'network', url: last.url, error: last.error });
    if (last?.status !== undefined && last.status < 300 && parseJson(last.text) === undefined) return fail('The registration response is not JSON.', { kind: 'not-json', url: last.url, what: 'a registration response', status: last.status, contentType: last.contentType });
    return fail('The authorization server refused to register Loupe.', { kind: 'registration-refused', status: last?.status, ...oauthErrorOf(last?.text) });
  }
  const secret = 'client_secret' in mem.client && mem.client.client_secret ? ' with a client secret (kept in the proxy)' : ' as a public client';
  return { status: 'passed', verdict: `Registered dynamically (RFC 7591)${note}: client ID ${mem.client.client_id}${secret}.` };
}

/**
 * Builds the URL with the SDK, then asks for it once from the proxy, without following a
 * redirect: an authorization server that refuses the redirect URI says so here, on an error page,
 * and would never call back (RFC 6749 §4.1.2.1). Nothing is approved by that request.
 */
export async function stepAuthorizationRequest({ ctx, mem, http }: StepRun): Promise<StepOutcome> {
  mem.state = randomBytes(32).toString('base64url');
  const resource = mem.prm?.resource;
  const { authorizationUrl, codeVerifier } = await startAuthorization(mem.authorizationServer!, { metadata: mem.metadata, clientInformation: mem.client!, redirectUrl: ctx.redirectUrl, scope: mem.scope, state: mem.state, resource });
  mem.codeVerifier = codeVerifier;
  const described = `PKCE S256, ${resource ? `resource ${resource}` : 'no resource'}, ${mem.scope ? `scope “${mem.scope}”` : 'no scope'} and a fresh state`;
  let check: string;
  try {
    const response = await http.fetch(authorizationUrl.href, { redirect: 'manual', headers: { accept: 'text/html' } });
    const location = response.headers.get('location') ?? '';
    const back = location.startsWith(ctx.redirectUrl) ? new URL(location).searchParams : undefined;
    // A refused URL stays on the card: what it asked for is what to look at.
    const refused = (verdict: string, failure: OAuthFailure): StepOutcome => ({ status: 'failed', verdict, failure, authorizationUrl: authorizationUrl.href });
    if (back?.get('error')) return refused('The authorization server sent an error back instead of a sign-in page.', authorizationErrorFailure({ redirectUrl: ctx.redirectUrl, error: back.get('error') ?? undefined, description: back.get('error_description') ?? undefined, scope: mem.scope }));
    if (response.status >= 400) {
      const { error, description } = oauthErrorOf(http.last()?.text);
      return refused(`The authorization server refused the request (${response.status}).`, authorizationErrorFailure({ redirectUrl: ctx.redirectUrl, status: response.status, error, description: description ?? (error ? undefined : http.last()?.text?.slice(0, 300)), scope: mem.scope }));
    }
    check = back ? 'it approves at once (it redirects straight back)' : response.status >= 300 ? `it redirects to its sign-in page (${response.status})` : `it answers ${response.status} with a page for you`;
  } catch {
    check = `Loupe could not check it (${http.last()?.error ?? 'no answer'}); your browser may still reach it`;
  }
  return { status: 'passed', verdict: `The authorization URL carries ${described}; ${check}. Continue opens it: sign in there and approve.`, authorizationUrl: authorizationUrl.href };
}

export async function stepCallback({ ctx, mem }: StepRun): Promise<StepOutcome> {
  const where = mem.metadata?.issuer ?? mem.authorizationServer ?? 'the authorization server';
  const outcome = await ctx.awaitCallback(mem.state!, where);
  if (!outcome.ok) {
    const failure = outcome.oauthError ? authorizationErrorFailure({ redirectUrl: ctx.redirectUrl, error: outcome.oauthError, description: outcome.description, scope: mem.scope }) : { kind: 'callback-failed' as const, reason: outcome.error };
    return fail(outcome.error, failure);
  }
  mem.code = outcome.code;
  return { status: 'passed', verdict: `The authorization server sent the browser back to ${ctx.redirectUrl} with a code (${outcome.code.length} characters, kept in the proxy) and the state Loupe sent.` };
}

export async function stepToken({ ctx, mem, http }: StepRun): Promise<StepOutcome> {
  const code = mem.code!;
  // Codes are single-use: whatever happens, this one is spent.
  mem.code = undefined;
  const resource = mem.prm?.resource;
  let tokens: OAuthTokens;
  try {
    tokens = await exchangeAuthorization(mem.authorizationServer!, { metadata: mem.metadata, clientInformation: mem.client!, authorizationCode: code, codeVerifier: mem.codeVerifier!, redirectUri: ctx.redirectUrl, resource, fetchFn: http.fetch });
  } catch (error) {
    const last = http.last();
    if (!last || last.error) return fail('The token request did not get through.', { kind: 'network', url: last?.url ?? mem.metadata?.token_endpoint ?? '', error: last?.error ?? String(error) });
    if (last.status !== undefined && last.status >= 400) return fail(`The token endpoint refused the code (${last.status}).`, tokenErrorFailure({ status: last.status, ...oauthErrorOf(last.text), scope: mem.scope, scopesSupported: mem.prm?.scopes_supported ?? mem.metadata?.scopes_supported }));
    if (parseJson(last.text) === undefined) return fail('The token response is not JSON.', { kind: 'not-json', url: last.url, what: 'a token response', status: last.status, contentType: last.contentType });
    return fail('The token response lacks what a token response holds.', { kind: 'token-response-invalid', problem: (shapeProblems(error) ?? [String(error)]).join('; ') + '.' });
  }
  if (tokens.token_type.toLowerCase() !== 'bearer') return fail(`The token type is “${tokens.token_type}”, not Bearer.`, { kind: 'token-response-invalid', problem: `token_type is "${tokens.token_type}"; MCP uses Bearer tokens.` });
  mem.tokens = tokens;
  const asked = new Set((mem.scope ?? '').split(' ').filter(Boolean));
  const granted = tokens.scope === undefined ? undefined : new Set(tokens.scope.split(' ').filter(Boolean));
  const missing = granted ? [...asked].filter((s) => !granted.has(s)) : [];
  const scope = granted === undefined ? 'no scope in the answer (so the scope asked for, RFC 6749 §5.1)' : missing.length ? `scope “${tokens.scope}”, without ${missing.join(' ')} that Loupe asked for` : `scope “${tokens.scope}”`;
  const expiry = tokens.expires_in !== undefined ? `expires in ${tokens.expires_in} s` : 'no expires_in (its lifetime is unknown)';
  return { status: 'passed', verdict: `A Bearer token (${tokens.access_token.length} characters, kept in the proxy): ${expiry}; ${scope}${tokens.refresh_token ? '; with a refresh token' : '; no refresh token'}.` };
}

export async function stepAuthenticated(run: StepRun): Promise<StepOutcome> {
  return authenticatedRequest(run);
}
