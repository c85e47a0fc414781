/**
 * What the gateway demands of a request before it reads a body, finds a session or starts a target
 * (issue 21, item 4). Anyone on this machine can reach 127.0.0.1, and so can any web page the user
 * opens: without these checks a page on http://localhost:3000 posting `text/plain` (a "simple"
 * request, sent without a CORS preflight) made Loupe start the user's server.
 *
 * In order: a loopback Host (DNS rebinding), no Origin or the gateway's own (no web page, not even
 * one on another loopback port), the per-launch bearer token (RFC 6750, compared in constant time;
 * unless the user opted out with `--gateway-no-auth`), and for a POST a JSON body (what MCP clients
 * send; the spec requires it). Each refusal says in words what was wrong.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 */
import type { IncomingMessage } from 'node:http';
import { isAllowedHost, isAllowedOrigin, tokenMatches } from './security.ts';

export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

export interface GuardPolicy {
  port: number;
  /** The bearer token every request must carry; undefined: none asked (`--gateway-no-auth`). */
  token?: string;
}

const REALM = 'Bearer realm="mcp-loupe-gateway"';

function bearerOf(req: IncomingMessage): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/** The request's media type without parameters (`application/json; charset=utf-8` → `application/json`). */
function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/** Undefined when the request may go on; else what to answer. */
export function guardRequest(req: IncomingMessage, policy: GuardPolicy): Refusal | undefined {
  const { port, token } = policy;
  // DNS rebinding: a page on another name that resolves to 127.0.0.1 sends its own name as Host.
  if (!isAllowedHost(req.headers.host, { port })) {
    return { status: 403, message: `Forbidden: this Host header is not allowed; use http://127.0.0.1:${port}/mcp (only loopback names are accepted, against DNS rebinding).` };
  }
  const origin = req.headers.origin;
  if (!isAllowedOrigin(origin, { port })) {
    return { status: 403, message: `Forbidden: Loupe’s gateway takes no requests from web pages (Origin ${origin}); only its own origin, or none, as MCP clients send.` };
  }
  if (token !== undefined) {
    const given = bearerOf(req);
    if (!tokenMatches(token, given)) {
      const challenge = given === undefined ? REALM : `${REALM}, error="invalid_token"`;
      const message = 'Unauthorized: Loupe’s gateway needs the token it printed at start, as the header "Authorization: Bearer <token>" (a new token at every launch).';
      return { status: 401, message, headers: { 'www-authenticate': challenge } };
    }
  }
  if (req.method === 'POST' && mediaType(req) !== 'application/json') {
    return { status: 415, message: 'Unsupported Media Type: Loupe’s gateway takes POST bodies of Content-Type application/json only.' };
  }
  return undefined;
}
