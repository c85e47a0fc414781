/**
 * Cross-app access in words (issue 29; Enterprise-Managed Authorization, SEP-990): the two
 * exchanges it makes — the IdP's token exchange (RFC 8693) of the user's ID token for an identity
 * assertion grant (ID-JAG), then the jwt-bearer grant (RFC 7523) of that assertion at the MCP
 * server's authorization server — read from what came back, and each failure named: the IdP
 * refused, the assertion is for the wrong audience or has expired, the authorization server does
 * not support the grant. Pure: the provider (proxy/oauth/provider/cross-app.ts) and the guided
 * flow (proxy/oauth/guided/cross-app.ts) find the facts, this says what they mean.
 * https://github.com/modelcontextprotocol/ext-auth/blob/main/specification/stable/enterprise-managed-authorization.mdx
 */
import { sameIssuer } from './issuer.ts';

/** The token types and grant of the extension. */
export const ID_JAG_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
export const ID_JAG_JWT_TYP = 'oauth-id-jag+jwt';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';

/** The claims of a JWT that matter here (read, not verified: the authorization server verifies). */
export interface JwtClaims {
  typ?: string;
  iss?: string;
  aud: string[];
  exp?: number;
  resource?: string;
  clientId?: string;
}

export type DecodedJwt = { ok: true; claims: JwtClaims } | { ok: false; error: string };

function base64UrlJson(part: string): unknown {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The header's typ and the payload's claims of a compact JWS; never its signature. */
export function decodeJwt(token: string): DecodedJwt {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, error: `it is not a JWT (${parts.length} dot-separated parts, not 3)` };
  let header: unknown;
  let payload: unknown;
  try {
    header = base64UrlJson(parts[0]);
    payload = base64UrlJson(parts[1]);
  } catch {
    return { ok: false, error: 'its header or payload is not base64url-encoded JSON' };
  }
  if (!payload || typeof payload !== 'object' || !header || typeof header !== 'object') return { ok: false, error: 'its header or payload is not a JSON object' };
  const p = payload as Record<string, unknown>;
  const aud = Array.isArray(p.aud) ? p.aud.filter((a): a is string => typeof a === 'string') : typeof p.aud === 'string' ? [p.aud] : [];
  return {
    ok: true,
    claims: { typ: str((header as Record<string, unknown>).typ), iss: str(p.iss), aud, exp: typeof p.exp === 'number' ? p.exp : undefined, resource: str(p.resource), clientId: str(p.client_id) },
  };
}

/** What the authorization server will check of an ID-JAG, as far as Loupe can tell before it does. */
export interface Expected {
  /** The authorization server's issuer: the assertion's audience. */
  issuer: string;
  /** The MCP server's resource (RFC 9728 `resource`). */
  resource?: string;
  /** Loupe's client id at the authorization server. */
  clientId?: string;
  /** Milliseconds since the epoch. */
  now: number;
}

export type AssertionProblem =
  | { kind: 'audience'; audience: string[]; expected: string }
  | { kind: 'expired'; expiredAt: number }
  | { kind: 'resource'; resource?: string; expected: string }
  | { kind: 'client'; clientId?: string; expected: string }
  | { kind: 'typ'; typ?: string };

/** Where an ID-JAG differs from what the authorization server expects (SEP-990 §4.4's checks). */
export function assertionProblems(claims: JwtClaims, expected: Expected): AssertionProblem[] {
  const problems: AssertionProblem[] = [];
  if (!claims.aud.some((a) => sameIssuer(a, expected.issuer))) problems.push({ kind: 'audience', audience: claims.aud, expected: expected.issuer });
  if (claims.exp !== undefined && claims.exp * 1000 <= expected.now) problems.push({ kind: 'expired', expiredAt: claims.exp * 1000 });
  if (expected.resource !== undefined && claims.resource !== undefined && claims.resource !== expected.resource) problems.push({ kind: 'resource', resource: claims.resource, expected: expected.resource });
  if (expected.clientId !== undefined && claims.clientId !== undefined && claims.clientId !== expected.clientId) problems.push({ kind: 'client', clientId: claims.clientId, expected: expected.clientId });
  if (claims.typ !== undefined && claims.typ !== ID_JAG_JWT_TYP) problems.push({ kind: 'typ', typ: claims.typ });
  return problems;
}

const when = (ms: number): string => new Date(ms).toISOString();

/** One problem in a clause: "its audience is X, not the authorization server's issuer Y". */
export function describeProblem(p: AssertionProblem): string {
  switch (p.kind) {
    case 'audience':
      return `its audience is ${p.audience.join(', ') || 'missing'}, not the authorization server's issuer ${p.expected}`;
    case 'expired':
      return `it expired at ${when(p.expiredAt)}`;
    case 'resource':
      return `its resource is ${p.resource ?? 'missing'}, not the MCP server's ${p.expected}`;
    case 'client':
      return `its client_id is ${p.clientId ?? 'missing'}, not ${p.expected}, the client Loupe authenticates as`;
    case 'typ':
      return `its typ is ${p.typ ?? 'missing'}, not ${ID_JAG_JWT_TYP}`;
  }
}

/** A failure of cross-app access (joined into lib/oauth/explain.ts's OAuthFailure). */
export type CrossAppFailure =
  | { kind: 'cross-app-settings'; missing: string[] }
  | { kind: 'id-token-expired'; expiredAt: number }
  | { kind: 'idp-refused'; url: string; status?: number; error?: string; description?: string }
  | { kind: 'id-jag-invalid'; problem: string }
  | { kind: 'assertion-audience'; audience?: string[]; expected?: string; description?: string }
  | { kind: 'assertion-expired'; expiredAt?: number; description?: string }
  | { kind: 'assertion-refused'; status?: number; error?: string; description?: string; problems: string[] }
  | { kind: 'grant-not-supported'; grants?: string[]; description?: string };

const said = (description: string | undefined): string => (description ? ` (it said: “${description}”)` : '');

/** What the IdP's refusal of the token exchange was (RFC 8693 §2.2.2, RFC 6749 §5.2). */
export function idpRefusalHint(f: Extract<CrossAppFailure, { kind: 'idp-refused' }>): string {
  const answer = `The IdP's token endpoint ${f.url} answered ${f.status ?? 'an error'}${f.error ? ` ${f.error}` : ''}${said(f.description)}.`;
  switch (f.error) {
    case 'invalid_grant':
      return `${answer} It did not accept the ID token: it may have expired, be for another client, or come from another IdP. Sign in to the IdP again and give Loupe the new ID token.`;
    case 'invalid_client':
    case 'unauthorized_client':
      return `${answer} Check the IdP client ID (and secret), and that this client may ask for identity assertions.`;
    case 'unsupported_grant_type':
      return `${answer} This IdP does not do token exchange (RFC 8693): check the IdP token endpoint, and that the IdP supports cross-app access.`;
    case 'invalid_target':
      return `${answer} The IdP will not issue an assertion for this authorization server or resource: an administrator must allow this MCP server for the client at the IdP.`;
    default:
      return `${answer} Check the IdP's logs for this client.`;
  }
}

/** The named explanation of a cross-app failure. */
export function explainCrossApp(f: CrossAppFailure): { name: string; hint: string } {
  switch (f.kind) {
    case 'cross-app-settings':
      return { name: 'Cross-app access not configured', hint: `Loupe needs ${f.missing.join(', ')} for cross-app access: set them in the OAuth settings (or with the --idp-… options).` };
    case 'id-token-expired':
      return { name: 'ID token expired', hint: `The ID token expired at ${when(f.expiredAt)}; the IdP will refuse it. Sign in to the IdP again and give Loupe the new ID token.` };
    case 'idp-refused':
      return { name: 'IdP refused the token exchange', hint: idpRefusalHint(f) };
    case 'id-jag-invalid':
      return { name: 'No identity assertion from the IdP', hint: `${f.problem} An IdP doing cross-app access answers with issued_token_type ${ID_JAG_TYPE} and the assertion (a JWT) in access_token.` };
    case 'assertion-audience':
      return {
        name: 'Wrong audience',
        hint: `The authorization server refused the identity assertion${said(f.description)}${f.audience ? `: its audience is ${f.audience.join(', ') || 'missing'}` : ''}${f.expected ? `, and this authorization server's issuer is ${f.expected}` : ''}. The IdP must issue it for the audience Loupe asks for (the issuer); check how the IdP maps that audience.`,
      };
    case 'assertion-expired':
      return { name: 'Expired assertion', hint: `The authorization server refused the identity assertion as expired${f.expiredAt !== undefined ? ` (at ${when(f.expiredAt)})` : ''}${said(f.description)}. Assertions live minutes: connect again for a fresh one, and check that the clocks of the IdP and the authorization server agree.` };
    case 'assertion-refused':
      return { name: 'Identity assertion refused', hint: `The authorization server answered ${f.status ?? 'an error'}${f.error ? ` ${f.error}` : ''}${said(f.description)}${f.problems.length ? `; Loupe sees that ${f.problems.join('; ')}` : ''}. Check that it trusts this IdP and knows this client.` };
    case 'grant-not-supported':
      return {
        name: 'Grant not supported by the authorization server',
        hint: `The authorization server does not accept the jwt-bearer grant (RFC 7523)${f.grants ? `: it lists ${f.grants.join(', ') || 'no grant'}` : ''}${said(f.description)}. Cross-app access needs ${JWT_BEARER_GRANT} enabled for this client; or sign in another way.`,
      };
  }
}

/** The IdP's refusal of the token exchange, from its answer. */
export function tokenExchangeFailure(facts: { url: string; status?: number; error?: string; description?: string }): CrossAppFailure {
  return { kind: 'idp-refused', ...facts };
}

/**
 * The authorization server's refusal of the jwt-bearer grant, from its answer and what Loupe knows
 * of the assertion (`problems`, from assertionProblems). invalid_client is not this module's: the
 * caller names it as any token request's.
 */
export function jwtBearerFailure(facts: { status?: number; error?: string; description?: string; problems: AssertionProblem[] }): CrossAppFailure {
  const { error, description, problems } = facts;
  if (error === 'unsupported_grant_type') return { kind: 'grant-not-supported', description };
  const audience = problems.find((p) => p.kind === 'audience');
  if (audience?.kind === 'audience' || /\baud(ience)?\b/i.test(description ?? '')) return { kind: 'assertion-audience', audience: audience?.kind === 'audience' ? audience.audience : undefined, expected: audience?.kind === 'audience' ? audience.expected : undefined, description };
  const expired = problems.find((p) => p.kind === 'expired');
  if (expired?.kind === 'expired' || /expire|\bexp\b/i.test(description ?? '')) return { kind: 'assertion-expired', expiredAt: expired?.kind === 'expired' ? expired.expiredAt : undefined, description };
  return { kind: 'assertion-refused', status: facts.status, error, description, problems: problems.map(describeProblem) };
}

/**
 * Whether the metadata lets the jwt-bearer grant be tried: it lists it, or lists no grants at all
 * (many servers leave grant_types_supported out, whatever RFC 8414 §2's default says).
 */
export function grantListed(grants: readonly string[] | undefined): boolean {
  return grants === undefined || grants.includes(JWT_BEARER_GRANT);
}
