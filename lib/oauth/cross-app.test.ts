/**
 * Cross-app access in words (cross-app.ts): a JWT's claims read without its signature, an
 * assertion's differences from what the authorization server expects, and each refusal named —
 * wrong audience, expired assertion, IdP refusal, grant not supported — the same way from the
 * server's words or from the claims alone.
 */
import { describe, expect, it } from 'vitest';
import { assertionProblems, decodeJwt, describeProblem, explainCrossApp, grantListed, JWT_BEARER_GRANT, jwtBearerFailure, tokenExchangeFailure, type JwtClaims } from './cross-app.ts';
import { explainFailure } from './explain.ts';

const b64 = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (header: object, payload: object) => `${b64(header)}.${b64(payload)}.c2lnbmF0dXJl`;

const NOW = Date.UTC(2026, 0, 1);
const AS = 'https://as.example.com/';
const RESOURCE = 'https://mcp.example.com/mcp';
const good: JwtClaims = { typ: 'oauth-id-jag+jwt', iss: 'https://idp.example.com', aud: [AS], exp: NOW / 1000 + 300, resource: RESOURCE, clientId: 'loupe' };
const expected = { issuer: AS, resource: RESOURCE, clientId: 'loupe', now: NOW };

describe('decodeJwt', () => {
  it('reads the typ and the claims, aud as a list', () => {
    const token = jwt({ alg: 'ES256', typ: 'oauth-id-jag+jwt' }, { iss: 'https://idp', aud: 'https://as', exp: 42, resource: 'https://r', client_id: 'c' });
    expect(decodeJwt(token)).toEqual({ ok: true, claims: { typ: 'oauth-id-jag+jwt', iss: 'https://idp', aud: ['https://as'], exp: 42, resource: 'https://r', clientId: 'c' } });
    expect(decodeJwt(jwt({ alg: 'none' }, { aud: ['a', 7, 'b'] }))).toMatchObject({ ok: true, claims: { aud: ['a', 'b'] } });
  });

  it('says what is wrong with a token that is not a JWT', () => {
    expect(decodeJwt('opaque-token')).toEqual({ ok: false, error: 'it is not a JWT (1 dot-separated parts, not 3)' });
    expect(decodeJwt('a.b.c')).toEqual({ ok: false, error: 'its header or payload is not base64url-encoded JSON' });
    expect(decodeJwt(`${b64('x')}.${b64(1)}.s`)).toEqual({ ok: false, error: 'its header or payload is not a JSON object' });
  });
});

describe('assertionProblems', () => {
  it('finds none in an assertion that fits (a trailing slash on the issuer aside)', () => {
    expect(assertionProblems(good, expected)).toEqual([]);
    expect(assertionProblems({ ...good, aud: ['https://as.example.com'] }, expected)).toEqual([]);
  });

  it('names the audience, the expiry, the resource, the client and the typ, each in a clause', () => {
    const problems = assertionProblems({ ...good, aud: ['https://other/'], exp: NOW / 1000 - 1, resource: 'https://elsewhere/mcp', clientId: 'someone', typ: 'JWT' }, expected);
    expect(problems.map((p) => p.kind)).toEqual(['audience', 'expired', 'resource', 'client', 'typ']);
    expect(problems.map(describeProblem)).toEqual([
      "its audience is https://other/, not the authorization server's issuer https://as.example.com/",
      'it expired at 2025-12-31T23:59:59.000Z',
      "its resource is https://elsewhere/mcp, not the MCP server's https://mcp.example.com/mcp",
      'its client_id is someone, not loupe, the client Loupe authenticates as',
      'its typ is JWT, not oauth-id-jag+jwt',
    ]);
  });
});

describe('naming a refusal', () => {
  it('wrong audience: from the claims, or from the server\'s words when Loupe cannot read the assertion', () => {
    const failure = jwtBearerFailure({ status: 400, error: 'invalid_grant', description: 'Invalid grant', problems: assertionProblems({ ...good, aud: ['https://other/'] }, expected) });
    expect(failure).toEqual({ kind: 'assertion-audience', audience: ['https://other/'], expected: AS, description: 'Invalid grant' });
    expect(explainFailure(failure).name).toBe('Wrong audience');
    expect(explainFailure(failure).hint).toMatch(/its audience is https:\/\/other\/, and this authorization server's issuer is https:\/\/as\.example\.com\//);
    expect(jwtBearerFailure({ error: 'invalid_grant', description: 'aud claim mismatch', problems: [] }).kind).toBe('assertion-audience');
  });

  it('expired assertion: from exp, or from the words', () => {
    const failure = jwtBearerFailure({ error: 'invalid_grant', problems: assertionProblems({ ...good, exp: NOW / 1000 - 5 }, expected) });
    expect(failure).toMatchObject({ kind: 'assertion-expired', expiredAt: NOW - 5000 });
    expect(explainFailure(failure)).toMatchObject({ name: 'Expired assertion', hint: expect.stringMatching(/at 2025-12-31T23:59:55\.000Z.*clocks/) });
    expect(jwtBearerFailure({ error: 'invalid_grant', description: 'JWT has expired', problems: [] }).kind).toBe('assertion-expired');
  });

  it('grant not supported: the token endpoint\'s unsupported_grant_type, or metadata without the grant', () => {
    const failure = jwtBearerFailure({ status: 400, error: 'unsupported_grant_type', problems: [] });
    expect(explainFailure(failure).name).toBe('Grant not supported by the authorization server');
    expect(explainCrossApp({ kind: 'grant-not-supported', grants: ['authorization_code'] }).hint).toMatch(/it lists authorization_code\..*jwt-bearer enabled/);
    expect(grantListed(undefined)).toBe(true);
    expect(grantListed(['authorization_code', JWT_BEARER_GRANT])).toBe(true);
    expect(grantListed(['authorization_code'])).toBe(false);
  });

  it('any other refusal says what Loupe sees of the assertion', () => {
    const failure = jwtBearerFailure({ status: 400, error: 'invalid_grant', description: 'Unknown issuer', problems: assertionProblems({ ...good, clientId: 'x' }, expected) });
    expect(failure.kind).toBe('assertion-refused');
    expect(explainFailure(failure)).toEqual({ name: 'Identity assertion refused', hint: expect.stringMatching(/answered 400 invalid_grant \(it said: “Unknown issuer”\); Loupe sees that its client_id is x, not loupe/) });
  });

  it('IdP refusal: a hint per OAuth error', () => {
    const refusal = (error?: string) => explainFailure(tokenExchangeFailure({ url: 'https://idp/token', status: 400, error, description: 'no' }));
    expect(refusal('invalid_grant')).toEqual({ name: 'IdP refused the token exchange', hint: expect.stringMatching(/^The IdP's token endpoint https:\/\/idp\/token answered 400 invalid_grant \(it said: “no”\)\. It did not accept the ID token/) });
    expect(refusal('invalid_client').hint).toMatch(/Check the IdP client ID/);
    expect(refusal('unsupported_grant_type').hint).toMatch(/does not do token exchange/);
    expect(refusal('invalid_target').hint).toMatch(/an administrator must allow this MCP server/);
    expect(refusal(undefined).hint).toMatch(/Check the IdP's logs/);
  });

  it('names the settings missing, an expired ID token and an IdP answer that is no assertion', () => {
    expect(explainFailure({ kind: 'cross-app-settings', missing: ['the ID token', 'the IdP client ID'] })).toEqual({ name: 'Cross-app access not configured', hint: expect.stringMatching(/needs the ID token, the IdP client ID/) });
    expect(explainFailure({ kind: 'id-token-expired', expiredAt: NOW }).name).toBe('ID token expired');
    expect(explainFailure({ kind: 'id-jag-invalid', problem: 'It said hello.' }).hint).toMatch(/^It said hello\. An IdP doing cross-app access answers with issued_token_type/);
  });
});
