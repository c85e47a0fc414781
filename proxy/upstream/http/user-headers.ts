/**
 * Where the headers a user gives for a remote MCP server (`--header`, a config's `headers`) may go
 * (issue 21, item 1). They are credentials for that server more often than not (`X-Goog-Api-Key`,
 * `Authorization`), so they are not handed to the SDK as `requestInit`: the SDK merges `requestInit`
 * into every request it makes, its OAuth discovery, registration and token requests included, and
 * those go to an authorization server that is often on another origin. Instead the fetch given to
 * the SDK adds them request by request:
 *
 * - to the MCP endpoint itself: all of them, over what the SDK set (as `requestInit` did);
 * - elsewhere on the MCP server's origin (its protected resource metadata, an authorization server
 *   it hosts itself): all but `Authorization`, and none that the SDK set itself. The user's
 *   `Authorization` is their access token for the resource server, and RFC 6750 §2.1 sends an access
 *   token to the resource server only; on a token endpoint that header is the client's own
 *   authentication (RFC 6749 §2.3.1), which the SDK sets as the auth method says;
 * - to any other origin (scheme, host and port, RFC 6454): none.
 *
 * A redirect is no way around this: the SDK follows redirects itself, within the origin, through
 * this same fetch, so every hop is judged by its own URL.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { HttpConfig } from '../../../lib/model/server-config.ts';
import type { HttpTap } from './tap.ts';

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * `fetchFn` with the user's `headers` added where they belong. `isServerEndpoint(url)` tells the
 * MCP endpoint (and a legacy SSE server's POST endpoint) from the other URLs of its origin.
 */
export function withUserHeaders(fetchFn: FetchLike, serverUrl: string, headers: Readonly<Record<string, string>>, isServerEndpoint: (url: string) => boolean): FetchLike {
  const entries = Object.entries(headers);
  if (entries.length === 0) return fetchFn;
  const origin = originOf(serverUrl);
  return (input, init) => {
    const url = String(input);
    if (origin === undefined || originOf(url) !== origin) return fetchFn(input, init);
    const endpoint = isServerEndpoint(url);
    const merged = new Headers(init?.headers);
    for (const [name, value] of entries) {
      if (endpoint) merged.set(name, value);
      else if (name.toLowerCase() !== 'authorization' && !merged.has(name)) merged.set(name, value);
    }
    return fetchFn(input, { ...init, headers: merged });
  };
}

/**
 * The fetch every remote transport is given (Loupe's own sessions of both generations, the
 * gateway's upstream): the tap's, with the user's headers where they belong. Never the SDK's
 * `requestInit`, which goes with every request the SDK makes, to any origin.
 */
export function userHeaderFetch(tap: HttpTap, config: HttpConfig): FetchLike {
  return withUserHeaders(tap.fetch, config.url, config.headers, tap.isServerEndpoint);
}
