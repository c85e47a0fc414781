/**
 * The two MCP requests of the guided OAuth flow (issue 11): `initialize` without a token (a
 * protected server answers 401 and its challenge) and with the new token (it answers the
 * initialize result). Written by hand rather than through the SDK's transport, because a step
 * must see the exact answer — status, headers, body — and the transport would act on a 401 itself.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server
 */
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { bearerRejectionFailure } from '../../../lib/oauth/explain.ts';
import { isJsonType, parseJson } from './fetch.ts';
import type { StepOutcome, StepRun } from './types.ts';
import { VERSION } from '../../version.ts';

const INITIALIZE_ID = 1;

function initializeBody(): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: INITIALIZE_ID,
    method: 'initialize',
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'mcp-loupe', version: VERSION } },
  });
}

/** The server's configured headers, except a credential of its own: these requests carry the flow's (or none). */
function requestHeaders(run: StepRun, token?: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(run.ctx.headers ?? {})) if (name.toLowerCase() !== 'authorization') headers[name] = value;
  return { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) };
}

type JsonRpcAnswer = { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };

/** The JSON-RPC answer to our initialize in an event stream, once its event is complete. */
export function sseAnswer(text: string): JsonRpcAnswer | undefined {
  for (const event of text.split(/\r?\n\r?\n/).slice(0, -1)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    const message = parseJson(data) as JsonRpcAnswer | undefined;
    if (message && typeof message === 'object' && message.id === INITIALIZE_ID && ('result' in message || 'error' in message)) return message;
  }
  return undefined;
}

/** For the recorder: an event stream is read until our answer is in it, not until the server closes it. */
export function enoughOfStream(text: string, contentType: string): boolean {
  return contentType.toLowerCase().includes('text/event-stream') && sseAnswer(text) !== undefined;
}

/** A session the request opened is closed again (best effort: a server may answer 405). */
async function endSession(run: StepRun, response: Response): Promise<void> {
  const id = response.headers.get('mcp-session-id');
  if (!id) return;
  try {
    await run.http.fetch(run.ctx.serverUrl, { method: 'DELETE', headers: { ...requestHeaders(run, run.mem.tokens?.access_token), 'mcp-session-id': id } });
  } catch {
    // Recorded with its error; the server forgets idle sessions by itself.
  }
}

export type UnauthenticatedAnswer = { ok: true; status: number; wwwAuthenticate?: string } | { ok: false; error: string };

export async function unauthenticatedRequest(run: StepRun): Promise<UnauthenticatedAnswer> {
  let response: Response;
  try {
    response = await run.http.fetch(run.ctx.serverUrl, { method: 'POST', headers: requestHeaders(run), body: initializeBody() });
  } catch {
    return { ok: false, error: run.http.last()?.error ?? 'no answer' };
  }
  if (response.ok) await endSession(run, response);
  return { ok: true, status: response.status, wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined };
}

function rejection(run: StepRun, response: Response): StepOutcome {
  const header = response.headers.get('www-authenticate') ?? '';
  const params = extractWWWAuthenticateParams(response);
  const description = /error_description="([^"]*)"/.exec(header)?.[1];
  const failure = bearerRejectionFailure({
    url: run.ctx.serverUrl,
    status: response.status,
    error: params.error,
    description,
    scope: params.scope,
    granted: run.mem.tokens?.scope ?? run.mem.scope,
    resource: run.mem.prm?.resource,
  });
  return { status: 'failed', verdict: `The server refused the token (${response.status}${params.error ? ` ${params.error}` : ''}).`, failure };
}

export async function authenticatedRequest(run: StepRun): Promise<StepOutcome> {
  const url = run.ctx.serverUrl;
  let response: Response;
  try {
    response = await run.http.fetch(url, { method: 'POST', headers: requestHeaders(run, run.mem.tokens!.access_token), body: initializeBody() });
  } catch {
    const error = run.http.last()?.error ?? 'no answer';
    return { status: 'failed', verdict: `The request did not get through: ${error}.`, failure: { kind: 'network', url, error } };
  }
  if (response.status === 401 || response.status === 403) return rejection(run, response);
  if (response.status !== 200) return { status: 'failed', verdict: `The server answered ${response.status}.`, failure: { kind: 'unexpected-status', url, status: response.status, expected: '200 with the initialize result' } };
  const contentType = response.headers.get('content-type') ?? undefined;
  const text = run.http.last()?.text ?? '';
  const stream = (contentType ?? '').toLowerCase().includes('text/event-stream');
  if (!stream && !isJsonType(contentType)) {
    return { status: 'failed', verdict: 'The answer is neither JSON nor an event stream.', failure: { kind: 'wrong-content-type', url, contentType, expected: 'application/json or text/event-stream' } };
  }
  const answer = (stream ? sseAnswer(text) : parseJson(text)) as JsonRpcAnswer | undefined;
  await endSession(run, response);
  if (!answer || typeof answer !== 'object') return { status: 'failed', verdict: 'The answer holds no JSON-RPC message.', failure: { kind: 'not-json', url, what: 'an initialize result', status: 200, contentType } };
  if (answer.error) {
    const problem = `The server answered initialize with error ${String(answer.error.code)}: ${String(answer.error.message)}.`;
    return { status: 'failed', verdict: problem, failure: { kind: 'not-initialize', problem } };
  }
  const result = answer.result as { protocolVersion?: unknown; serverInfo?: { name?: unknown; version?: unknown } } | undefined;
  if (!result || typeof result.protocolVersion !== 'string' || !result.serverInfo) {
    const problem = 'The answer has no protocolVersion or serverInfo.';
    return { status: 'failed', verdict: problem, failure: { kind: 'not-initialize', problem } };
  }
  const who = `${String(result.serverInfo.name ?? 'the server')}${result.serverInfo.version !== undefined ? ` ${String(result.serverInfo.version)}` : ''}`;
  return { status: 'passed', verdict: `The server accepted the token: ${who} answered initialize (protocol ${result.protocolVersion}).` };
}
