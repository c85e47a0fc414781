import { describe, expect, it } from 'vitest';
import { authorizationErrorFailure, bearerRejectionFailure, explainFailure, tokenErrorFailure, type OAuthFailure } from './explain.ts';

const SERVER = 'http://127.0.0.1:4000/mcp';
const REDIRECT = 'http://127.0.0.1:6280/oauth/callback';

/** Each failure, the name it must get, and words its hint must contain (the facts it names, and the fix). */
const CASES: [OAuthFailure, string, string[]][] = [
  [{ kind: 'network', url: SERVER, error: 'connection refused' }, 'Cannot reach the server', [SERVER, 'connection refused']],
  [{ kind: 'not-json', url: 'http://x/.well-known/oauth-authorization-server', what: 'authorization server metadata', status: 200, contentType: 'text/html' }, 'Not JSON', ['text/html', 'authorization server metadata', '200']],
  [{ kind: 'wrong-content-type', url: SERVER, contentType: 'text/plain', expected: 'application/json or text/event-stream' }, 'Wrong content type', ['text/plain', 'text/event-stream']],
  [{ kind: 'unexpected-status', url: SERVER, status: 500, expected: '401' }, 'Unexpected HTTP 500', ['500', '401']],
  [{ kind: 'not-protected', url: SERVER, status: 200 }, 'No sign-in asked for', ['does not require OAuth']],
  [{ kind: 'not-protected', url: SERVER, status: 404 }, 'Unexpected HTTP 404', ['401', 'WWW-Authenticate']],
  [
    { kind: 'prm-not-found', fromHeader: false, tried: [{ url: 'http://x/.well-known/oauth-protected-resource/mcp', status: 404 }, { url: 'http://x/.well-known/oauth-protected-resource', status: 404 }] },
    'Protected resource metadata not found (PRM 404)',
    ['http://x/.well-known/oauth-protected-resource/mcp → 404', 'http://x/.well-known/oauth-protected-resource → 404', 'resource_metadata'],
  ],
  [{ kind: 'prm-not-found', fromHeader: true, tried: [{ url: 'http://x/prm', error: 'connection refused' }] }, 'Protected resource metadata not found (PRM 404)', ['http://x/prm → connection refused', 'WWW-Authenticate']],
  [{ kind: 'prm-invalid', url: 'http://x/prm', problems: ['resource is missing'] }, 'Protected resource metadata invalid', ['resource is missing']],
  [{ kind: 'no-authorization-servers', url: 'http://x/prm' }, 'No authorization server named', ['authorization_servers']],
  [{ kind: 'resource-mismatch', resource: 'http://other:1/mcp', serverUrl: SERVER }, '`resource` mismatch', ['http://other:1/mcp', SERVER, 'RFC 9728 §3.3']],
  [{ kind: 'as-metadata-not-found', authorizationServer: 'http://as', tried: [{ url: 'http://as/.well-known/oauth-authorization-server', status: 404 }] }, 'Authorization server metadata not found', ['http://as/.well-known/oauth-authorization-server → 404']],
  [{ kind: 'as-metadata-incomplete', url: 'http://as/m', missing: ['token_endpoint'] }, 'Authorization server metadata incomplete', ['token_endpoint']],
  [{ kind: 'issuer-mismatch', issuer: 'http://evil:9', expected: 'http://as:1/', url: 'http://as:1/.well-known/oauth-authorization-server' }, 'Metadata served from the wrong origin (issuer mismatch)', ['http://evil:9', 'http://as:1/', 'RFC 8414 §3.3']],
  [{ kind: 'no-pkce-methods', url: 'http://as/m' }, 'Missing code_challenge_methods_supported', ['"code_challenge_methods_supported": ["S256"]']],
  [{ kind: 'no-s256', methods: ['plain'] }, 'PKCE S256 not offered', ['plain']],
  [{ kind: 'no-code-response-type', types: ['token'] }, 'Authorization code flow not offered', ['token']],
  [{ kind: 'no-registration', redirectUrl: REDIRECT }, 'No way to register Loupe', [REDIRECT, 'Client ID']],
  [{ kind: 'client-metadata-document', url: 'https://app/client.json', problem: 'its client_id is not its URL' }, 'Client ID metadata document unusable', ['its client_id is not its URL']],
  [{ kind: 'registration-refused', status: 400, error: 'invalid_client_metadata', description: 'bad uri' }, 'Dynamic client registration refused', ['400', 'invalid_client_metadata', 'bad uri']],
  [{ kind: 'redirect-not-allowed', redirectUrl: REDIRECT, status: 400, description: 'Unregistered redirect_uri' }, 'Redirect URI not allowed', [REDIRECT, 'Unregistered redirect_uri', 'port included']],
  [{ kind: 'authorization-refused', error: 'access_denied' }, 'Sign-in refused (access_denied)', ['approve']],
  [{ kind: 'authorization-refused', error: 'unauthorized_client', description: 'nope' }, 'Authorization refused (unauthorized_client)', ['nope']],
  [{ kind: 'callback-failed', reason: 'Nobody finished signing in within 10 minutes.' }, 'No authorization code came back', ['10 minutes']],
  [{ kind: 'scope-refused', scope: 'admin', description: 'not allowed', scopesSupported: ['read', 'write'] }, 'Scopes refused (invalid_scope)', ['“admin”', 'not allowed', 'read write']],
  [{ kind: 'token-refused', status: 401, error: 'invalid_client' }, 'Client authentication failed (invalid_client)', ['Client secret']],
  [{ kind: 'token-refused', status: 400, error: 'invalid_grant' }, 'Code refused (invalid_grant)', ['single-use']],
  [{ kind: 'token-refused', status: 500 }, 'Token request refused', ['500']],
  [{ kind: 'token-response-invalid', problem: 'token_type is "mac".' }, 'Token response invalid', ['token_type is "mac".']],
  [{ kind: 'token-audience', resource: SERVER, description: 'audience mismatch' }, 'Token audience wrong', ['401 invalid_token', 'RFC 8707', SERVER, 'audience mismatch']],
  [{ kind: 'insufficient-scope', scope: 'admin', granted: 'read' }, 'Token lacks a scope (insufficient_scope)', ['“admin”', '“read”']],
  [{ kind: 'not-initialize', problem: 'The body has no result.' }, 'Not an initialize result', ['The body has no result.']],
];

describe('explainFailure', () => {
  it.each(CASES)('%j is named and hinted', (failure, name, words) => {
    const { name: got, hint } = explainFailure(failure);
    expect(got).toBe(name);
    for (const word of words) expect(hint).toContain(word);
    // One plain statement of what happened and what to do: never empty, never a stack.
    expect(hint.length).toBeGreaterThan(40);
    expect(hint).not.toMatch(/undefined|\[object/);
  });

  it('covers every kind of failure', () => {
    const kinds = new Set(CASES.map(([f]) => f.kind));
    expect(kinds.size).toBe(27);
  });

  it('gives every named failure of the issue a different name', () => {
    const names = ['issuer-mismatch', 'prm-not-found', 'resource-mismatch', 'no-pkce-methods', 'redirect-not-allowed', 'token-audience', 'scope-refused'].map((kind) => explainFailure(CASES.find(([f]) => f.kind === kind)![0]).name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('tokenErrorFailure', () => {
  it('names invalid_scope as scopes refused, with the scope asked for', () => {
    expect(tokenErrorFailure({ status: 400, error: 'invalid_scope', scope: 'admin', description: 'x' })).toEqual({ kind: 'scope-refused', scope: 'admin', description: 'x', scopesSupported: undefined });
  });

  it('keeps any other error as a refused token request', () => {
    expect(tokenErrorFailure({ status: 400, error: 'invalid_grant' })).toMatchObject({ kind: 'token-refused', error: 'invalid_grant', status: 400 });
  });
});

describe('authorizationErrorFailure', () => {
  it('names a refusal that speaks of the redirect URI', () => {
    expect(authorizationErrorFailure({ redirectUrl: REDIRECT, status: 400, error: 'invalid_request', description: 'Unregistered redirect_uri' })).toMatchObject({ kind: 'redirect-not-allowed', redirectUrl: REDIRECT, status: 400 });
  });

  it('names invalid_scope at the authorization endpoint as scopes refused', () => {
    expect(authorizationErrorFailure({ redirectUrl: REDIRECT, error: 'invalid_scope', scope: 'admin' })).toMatchObject({ kind: 'scope-refused', scope: 'admin' });
  });

  it('keeps the rest as refused, by error code or by status', () => {
    expect(authorizationErrorFailure({ redirectUrl: REDIRECT, error: 'access_denied' })).toEqual({ kind: 'authorization-refused', error: 'access_denied', description: undefined });
    expect(authorizationErrorFailure({ redirectUrl: REDIRECT, status: 400 })).toMatchObject({ kind: 'authorization-refused', error: 'HTTP 400' });
  });
});

describe('bearerRejectionFailure', () => {
  it('reads a 401 after a good token request as the wrong audience', () => {
    expect(bearerRejectionFailure({ url: SERVER, status: 401, error: 'invalid_token', resource: SERVER })).toMatchObject({ kind: 'token-audience', resource: SERVER });
  });

  it('reads 403 insufficient_scope as a missing scope', () => {
    expect(bearerRejectionFailure({ url: SERVER, status: 403, error: 'insufficient_scope', scope: 'admin', granted: 'read' })).toEqual({ kind: 'insufficient-scope', scope: 'admin', granted: 'read' });
  });

  it('keeps any other status as unexpected', () => {
    expect(bearerRejectionFailure({ url: SERVER, status: 500 })).toMatchObject({ kind: 'unexpected-status', status: 500 });
  });
});
