/**
 * What Loupe's HTTP MCP endpoints (the gateway, the mock) demand of a request before they read a
 * body, find a session, start a target or answer from a recording (issue 21, item 4). Anyone on
 * this machine can reach 127.0.0.1, and so can any web page the user opens: without these checks a
 * page on http://localhost:3000 posting `text/plain` (a "simple" request, sent without a CORS
 * preflight) made Loupe start the user's server, and read a recording from the mock.
 *
 * In order: a loopback Host (DNS rebinding), no Origin or the endpoint's own (no web page, not even
 * one on another loopback port), the per-launch bearer token (RFC 6750, compared in constant time;
 * unless the user opted out with `--gateway-no-auth` or `--mock-no-auth`), and for a POST a JSON
 * body (what MCP clients send; the spec requires it). Each refusal says in words what was wrong.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAllowedHost, isAllowedOrigin, newToken, tokenMatches } from './security.ts';

/** Which endpoint: its name in the refusals' words, and the realm of its WWW-Authenticate challenge. */
export interface Endpoint {
  name: string;
  realm: string;
}

export const GATEWAY: Endpoint = { name: 'Loupe’s gateway', realm: 'mcp-loupe-gateway' };
export const MOCK: Endpoint = { name: 'Loupe’s mock', realm: 'mcp-loupe-mock' };

export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

export interface GuardPolicy {
  endpoint: Endpoint;
  port: number;
  /** The bearer token every request must carry; undefined: none asked (`--gateway-no-auth`, `--mock-no-auth`). */
  token?: string;
}

/** An endpoint's per-launch token: longer than the page's, since it may be pasted into config files that live long. */
export function newEndpointToken(): string {
  return newToken(32);
}

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
  const { endpoint, port, token } = policy;
  // DNS rebinding: a page on another name that resolves to 127.0.0.1 sends its own name as Host.
  if (!isAllowedHost(req.headers.host, { port })) {
    return { status: 403, message: `Forbidden: this Host header is not allowed; use http://127.0.0.1:${port}/mcp (only loopback names are accepted, against DNS rebinding).` };
  }
  const origin = req.headers.origin;
  if (!isAllowedOrigin(origin, { port })) {
    return { status: 403, message: `Forbidden: ${endpoint.name} takes no requests from web pages (Origin ${origin}); only its own origin, or none, as MCP clients send.` };
  }
  if (token !== undefined) {
    const given = bearerOf(req);
    if (!tokenMatches(token, given)) {
      const realm = `Bearer realm="${endpoint.realm}"`;
      const challenge = given === undefined ? realm : `${realm}, error="invalid_token"`;
      const message = `Unauthorized: ${endpoint.name} needs the token it printed at start, as the header "Authorization: Bearer <token>" (a new token at every launch).`;
      return { status: 401, message, headers: { 'www-authenticate': challenge } };
    }
  }
  if (req.method === 'POST' && mediaType(req) !== 'application/json') {
    return { status: 415, message: `Unsupported Media Type: ${endpoint.name} takes POST bodies of Content-Type application/json only.` };
  }
  return undefined;
}

/** A JSON-RPC error with no id, in the shape of the SDK's own refusals, so that a client reports it the same way. */
export function answerError(res: ServerResponse, status: number, message: string, code = -32000, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** Answers the request when the guard refuses it; true when it did (then nothing else may be done with it). */
export function refused(req: IncomingMessage, res: ServerResponse, policy: GuardPolicy): boolean {
  const refusal = guardRequest(req, policy);
  if (refusal) answerError(res, refusal.status, refusal.message, -32000, refusal.headers);
  return refusal !== undefined;
}
