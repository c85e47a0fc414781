/**
 * After a 401: which OAuth discovery steps a client would take, tried for real, each with its
 * status, for a connection whose sign-in could not start or finish: the list tells the user what
 * the server offers and where it stops. The SDK's own discovery runs over the tap's fetch, so every probe is
 * also in the trace; the SDK hides the statuses it saw, so the fetch passed to it notes them.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-discovery
 */
import { discoverOAuthServerInfo, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

export interface ProbeStep {
  /** `WWW-Authenticate`, `RFC 9728`, `RFC 8414` or `OpenID`. */
  what: string;
  url: string;
  /** The HTTP status, or what went wrong instead. */
  status: string;
}

function kindOf(url: string): string {
  if (url.includes('/.well-known/oauth-protected-resource')) return 'protected resource metadata (RFC 9728)';
  if (url.includes('/.well-known/oauth-authorization-server')) return 'authorization server metadata (RFC 8414)';
  if (url.includes('/.well-known/openid-configuration')) return 'OpenID configuration';
  return 'metadata';
}

/** The challenge's `resource_metadata` parameter (RFC 9728 section 5.1), when there is one. */
export function resourceMetadataOf(wwwAuthenticate: string | undefined): URL | undefined {
  if (!wwwAuthenticate) return undefined;
  const headers = new Headers({ 'www-authenticate': wwwAuthenticate });
  return extractWWWAuthenticateParams({ headers } as Response).resourceMetadataUrl;
}

export async function probeAuthDiscovery(serverUrl: string, wwwAuthenticate: string | undefined, fetchFn: FetchLike): Promise<ProbeStep[]> {
  const resourceMetadataUrl = resourceMetadataOf(wwwAuthenticate);
  const steps: ProbeStep[] = [
    { what: 'WWW-Authenticate', url: serverUrl, status: wwwAuthenticate ? `resource_metadata ${resourceMetadataUrl ? resourceMetadataUrl.href : 'not given'}` : 'no WWW-Authenticate header' },
  ];
  const noting: FetchLike = async (input, init) => {
    const url = String(input);
    try {
      const response = await fetchFn(input, init);
      steps.push({ what: kindOf(url), url, status: String(response.status) });
      return response;
    } catch (error) {
      steps.push({ what: kindOf(url), url, status: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  };
  try {
    await discoverOAuthServerInfo(serverUrl, { resourceMetadataUrl, fetchFn: noting });
  } catch {
    // A 5xx or a document that is not metadata ends discovery; the steps so far say where.
  }
  return steps;
}

/** "URL → status" per step, for the hint under a 401. */
export function describeProbe(steps: ProbeStep[]): string {
  return steps.map((step) => (step.what === 'WWW-Authenticate' ? `WWW-Authenticate: ${step.status}` : `${step.url} → ${step.status}`)).join('; ');
}
