/**
 * The cross-app access path of the guided OAuth flow (issue 29; Enterprise-Managed Authorization,
 * SEP-990). After the same discovery as the authorization code path, it checks the authorization
 * server for the jwt-bearer grant, exchanges the user's ID token at the IdP for an identity
 * assertion (ID-JAG, RFC 8693, the SDK's `requestJwtAuthorizationGrant`) and trades that at the
 * authorization server for an access token (RFC 7523, the SDK's `exchangeJwtAuthGrant`), each
 * exchange recorded with its tokens masked and judged; each failure is named in
 * lib/oauth/cross-app.ts's words. guided.ts runs the steps.
 * https://github.com/modelcontextprotocol/ext-auth/blob/main/specification/stable/enterprise-managed-authorization.mdx
 */
import { readFileSync } from 'node:fs';
import { discoverAndRequestJwtAuthGrant, exchangeJwtAuthGrant, requestJwtAuthorizationGrant, selectClientAuthMethod } from '@modelcontextprotocol/client';
import { assertionProblems, decodeJwt, describeProblem, grantListed, JWT_BEARER_GRANT, jwtBearerFailure, tokenExchangeFailure, type CrossAppFailure } from '../../../lib/oauth/cross-app.ts';
import { oauthErrorOf } from './fetch.ts';
import { chooseScope, discoverAuthorizationServer, fail } from './steps.ts';
import type { FlowMemory, GuidedContext, StepOutcome, StepRun, StepSpec } from './types.ts';

const SPEC = 'https://github.com/modelcontextprotocol/ext-auth/blob/main/specification/stable/enterprise-managed-authorization.mdx';

/** What the flow must not show, wherever it appears: the ID token, the IdP's secret, the assertion. */
export function crossAppSecrets(ctx: GuidedContext, mem: FlowMemory): (string | undefined)[] {
  return [ctx.settings.idp?.idToken, ctx.settings.idp?.clientSecret, mem.idToken, mem.assertion];
}

export async function stepCrossAppAuthorizationServer(run: StepRun): Promise<StepOutcome> {
  const found = await discoverAuthorizationServer(run);
  if (!found.ok) return found.outcome;
  const { metadata, url, kind } = found;
  const grants = metadata.grant_types_supported;
  if (!grantListed(grants)) return fail(`The authorization server lists the grants ${grants!.join(', ') || '(none)'}, without ${JWT_BEARER_GRANT}.`, { kind: 'grant-not-supported', grants });
  run.mem.metadata = metadata;
  const methods = metadata.token_endpoint_auth_methods_supported;
  const auth = methods ? `client authentication ${methods.join(', ')}` : 'no token_endpoint_auth_methods_supported (client_secret_basic, the default)';
  const offered = grants ? 'it offers the jwt-bearer grant' : 'it lists no grant types, so Loupe tries the jwt-bearer grant';
  return { status: 'passed', verdict: `${kind} at ${url}: the issuer matches and ${offered}; token ${metadata.token_endpoint}, ${auth}.` };
}

/** What cross-app access lacks in the settings, in their words. */
function missingSettings(ctx: GuidedContext): string[] {
  const { idp, clientId, clientSecret, idTokenFile } = ctx.settings;
  return [
    ...(!idp?.tokenEndpoint && !idp?.url ? ['the IdP token endpoint (or its issuer URL)'] : []),
    ...(!idp?.clientId ? ['the IdP client ID'] : []),
    ...(!idp?.idToken && !idTokenFile ? ['the ID token'] : []),
    ...(!clientId ? ['the client ID at the authorization server'] : []),
    ...(!clientSecret ? ['its client secret'] : []),
  ];
}

function readIdToken(ctx: GuidedContext): { ok: true; token: string } | { ok: false; error: string } {
  const file = ctx.settings.idTokenFile;
  if (!file) return { ok: true, token: ctx.settings.idp?.idToken ?? '' };
  try {
    return { ok: true, token: readFileSync(file, 'utf8').trim() };
  } catch (error) {
    return { ok: false, error: `Loupe cannot read the ID token from ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).` };
  }
}

const failCrossApp = (verdict: string, failure: CrossAppFailure): StepOutcome => fail(verdict, failure);

export async function stepTokenExchange(run: StepRun): Promise<StepOutcome> {
  const { ctx, mem, http } = run;
  const missing = missingSettings(ctx);
  if (missing.length > 0) return failCrossApp('The OAuth settings lack what cross-app access needs.', { kind: 'cross-app-settings', missing });
  const read = readIdToken(ctx);
  if (!read.ok) return fail(read.error);
  mem.idToken = read.token;
  const idToken = decodeJwt(read.token);
  if (idToken.ok && idToken.claims.exp !== undefined && idToken.claims.exp * 1000 <= Date.now()) return failCrossApp('The ID token has expired; Loupe did not send it.', { kind: 'id-token-expired', expiredAt: idToken.claims.exp * 1000 });
  const idp = ctx.settings.idp!;
  const audience = mem.metadata!.issuer;
  mem.scope = chooseScope(run);
  const common = { audience, resource: mem.prm!.resource, idToken: read.token, clientId: idp.clientId!, clientSecret: idp.clientSecret, scope: mem.scope, fetchFn: http.fetch };
  try {
    const result = idp.tokenEndpoint ? await requestJwtAuthorizationGrant({ ...common, tokenEndpoint: idp.tokenEndpoint }) : await discoverAndRequestJwtAuthGrant({ ...common, idpUrl: idp.url! });
    mem.assertion = result.jwtAuthGrant;
  } catch (error) {
    const last = http.last();
    if (last?.error) return fail('The token exchange did not get through.', { kind: 'network', url: last.url, error: last.error });
    if (last?.status !== undefined && last.status >= 400) return failCrossApp(`The IdP refused the token exchange (${last.status}).`, tokenExchangeFailure({ url: last.url, status: last.status, ...oauthErrorOf(last.text) }));
    return failCrossApp('The IdP did not answer with an identity assertion.', { kind: 'id-jag-invalid', problem: `${error instanceof Error ? error.message : String(error)}.` });
  }
  return judgeAssertion(mem, audience, ctx.settings.clientId);
}

/** The assertion's claims against what the authorization server will check: said, not yet judged (the server judges next). */
function judgeAssertion(mem: FlowMemory, audience: string, clientId: string | undefined): StepOutcome {
  const decoded = decodeJwt(mem.assertion!);
  const length = `${mem.assertion!.length} characters, kept in the proxy`;
  if (!decoded.ok) return { status: 'passed', verdict: `The IdP issued an identity assertion (${length}), but Loupe cannot read it: ${decoded.error}. The authorization server will say whether it takes it.` };
  const claims = (mem.assertionClaims = decoded.claims);
  const problems = assertionProblems(claims, { issuer: audience, resource: mem.prm?.resource, clientId, now: Date.now() });
  const life = claims.exp !== undefined ? `expires in ${Math.round(claims.exp - Date.now() / 1000)} s` : 'no expiry (exp)';
  const facts = `typ ${claims.typ ?? '(none)'}, audience ${claims.aud.join(', ') || '(none)'}, resource ${claims.resource ?? '(none)'}, client_id ${claims.clientId ?? '(none)'}, ${life}`;
  const fit = problems.length === 0 ? 'It fits this authorization server: its audience is the issuer, its resource the MCP server.' : `The authorization server is likely to refuse it: ${problems.map(describeProblem).join('; ')}.`;
  return { status: 'passed', verdict: `The IdP issued an identity assertion (ID-JAG, ${length}): ${facts}. ${fit}` };
}

export async function stepJwtBearer({ ctx, mem, http }: StepRun): Promise<StepOutcome> {
  const metadata = mem.metadata!;
  const assertion = mem.assertion!;
  const client = { client_id: ctx.settings.clientId!, client_secret: ctx.settings.clientSecret };
  const authMethod = selectClientAuthMethod(client, metadata.token_endpoint_auth_methods_supported ?? []);
  let tokens: Awaited<ReturnType<typeof exchangeJwtAuthGrant>>;
  try {
    tokens = await exchangeJwtAuthGrant({ tokenEndpoint: metadata.token_endpoint, jwtAuthGrant: assertion, clientId: client.client_id, clientSecret: client.client_secret, authMethod, fetchFn: http.fetch });
  } catch (error) {
    const last = http.last();
    if (!last || last.error) return fail('The token request did not get through.', { kind: 'network', url: last?.url ?? metadata.token_endpoint, error: last?.error ?? String(error) });
    if (last.status === undefined || last.status < 400) return fail('The token response lacks what a token response holds.', { kind: 'token-response-invalid', problem: `${error instanceof Error ? error.message : String(error)}.` });
    const answer = { status: last.status, ...oauthErrorOf(last.text) };
    if (answer.error === 'invalid_client') return fail(`The authorization server refused Loupe's client (${last.status} invalid_client).`, { kind: 'token-refused', ...answer });
    const problems = mem.assertionClaims ? assertionProblems(mem.assertionClaims, { issuer: metadata.issuer, resource: mem.prm?.resource, clientId: client.client_id, now: Date.now() }) : [];
    return failCrossApp(`The authorization server refused the identity assertion (${last.status}${answer.error ? ` ${answer.error}` : ''}).`, jwtBearerFailure({ ...answer, problems }));
  }
  if (tokens.token_type.toLowerCase() !== 'bearer') return fail(`The token type is “${tokens.token_type}”, not Bearer.`, { kind: 'token-response-invalid', problem: `token_type is "${tokens.token_type}"; MCP uses Bearer tokens.` });
  mem.tokens = tokens;
  const expiry = tokens.expires_in !== undefined ? `expires in ${tokens.expires_in} s` : 'no expires_in (its lifetime is unknown)';
  return { status: 'passed', verdict: `The jwt-bearer grant (${authMethod}) gave a Bearer token (${tokens.access_token.length} characters, kept in the proxy): ${expiry}; ${tokens.scope ? `scope “${tokens.scope}”` : 'no scope named'}.` };
}

/** The steps cross-app access replaces or adds (the others are the authorization code path's). */
export const CROSS_APP_SPECS = {
  'authorization-server-metadata': {
    title: 'Authorization server metadata',
    expects: 'RFC 8414 or OpenID Connect metadata whose issuer is the authorization server URL it was fetched for, with a token endpoint, and the jwt-bearer grant (urn:ietf:params:oauth:grant-type:jwt-bearer) among grant_types_supported.',
    reference: `${SPEC}#authorization-server-metadata`,
    run: stepCrossAppAuthorizationServer,
  },
  'token-exchange': {
    title: 'Token exchange at the IdP',
    expects: "The ID token exchanged at the IdP's token endpoint (RFC 8693: subject_token_type id_token, requested_token_type id-jag, audience = the authorization server's issuer, resource = the MCP server) for an identity assertion grant: a JWT of typ oauth-id-jag+jwt for that audience and resource.",
    reference: `${SPEC}#token-exchange`,
    run: stepTokenExchange,
  },
  'jwt-bearer-grant': {
    title: 'JWT bearer grant',
    expects: 'The identity assertion sent to the token endpoint with grant_type jwt-bearer (RFC 7523) and Loupe’s client authentication (client_secret_basic), answered with a Bearer access token for the MCP server.',
    reference: 'https://datatracker.ietf.org/doc/html/rfc7523#section-2.1',
    run: stepJwtBearer,
  },
} as const satisfies Record<string, StepSpec>;
