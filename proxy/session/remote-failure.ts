/**
 * A failed remote connection in plain words: one sentence per cause (issue 8), checked from the
 * most specific to the most general.
 */
import type { LoupeError } from '../../lib/wire/wire.ts';
import { describeProbe, type ProbeStep } from '../upstream/http/auth-probe.ts';
import type { HttpFailure, VersionFacts, WaitingExchange } from '../upstream/http/tap.ts';
import { versionMismatchError } from './errors.ts';

/** An attempt to connect that failed, with what the tap saw of it (connect.ts makes one). */
export type FailedAttempt = {
  ok: false;
  error: LoupeError;
  failure?: HttpFailure;
  /** A POST that was still waiting when the attempt gave up. */
  waiting?: WaitingExchange;
  versions?: VersionFacts;
  sseEndpoint?: string;
  /** The OAuth discovery steps tried after a 401. */
  authSteps?: ProbeStep[];
  /** Why signing in failed, when Loupe tried and named the cause (the 401 that remains is its consequence). */
  signIn?: { error: string; hint?: string };
  /** Why the SDK could not start a sign-in, in its words (no client to sign in with, say), and where. */
  signInNotStarted?: { error: string; authorizationServer?: string };
};

/** The SDK's words when an SSE `endpoint` event names another origin (client/sse.js). */
const FOREIGN_ENDPOINT = /Endpoint origin does not match connection origin: (\S+)/;

function originRefused(failed: FailedAttempt): LoupeError | undefined {
  const match = FOREIGN_ENDPOINT.exec(failed.error.message);
  if (!match) return undefined;
  let origin = match[1];
  try {
    if (failed.sseEndpoint) origin = new URL(failed.sseEndpoint, failed.failure?.url ?? 'http://invalid').origin;
  } catch {
    // Keep the SDK's reading of it.
  }
  return {
    code: 'ORIGIN_REFUSED',
    message: `The SSE endpoint points at another origin (${origin}); refused.`,
    hint: 'Loupe posts only to the origin it connected to. A server behind a proxy may be announcing its internal address.',
    detail: { url: failed.sseEndpoint ?? origin },
  };
}

/**
 * basic/lifecycle#version-negotiation. session-errors.ts already turned the refusal into
 * VERSION_MISMATCH; the tap saw the frames, so it knows what Loupe asked for and what came back.
 */
function versionMismatch(failed: FailedAttempt): LoupeError | undefined {
  // A version refusal whatever the status: a 2026-07-28 server refuses a 2025 initialize with HTTP
  // 400 and the -32022 error, which the SDK reports as an HTTP failure (issue 12).
  if (failed.error.code !== 'VERSION_MISMATCH' && !failed.versions?.supported) return undefined;
  const { supported, answered, requested } = failed.versions ?? {};
  const named = supported ?? (answered !== undefined ? [answered] : undefined);
  return named ? versionMismatchError(named, requested) : failed.error;
}

/** Why a sign-in never started, in plain words; undefined when the SDK said nothing Loupe can use. */
function notStartedWhy(failed: FailedAttempt): string | undefined {
  const why = failed.signInNotStarted;
  if (!why) return undefined;
  const server = why.authorizationServer ? `its authorization server ${why.authorizationServer}` : 'its authorization server';
  if (/dynamic client registration/i.test(why.error)) return `${server} does not offer dynamic client registration, so Loupe has no client to sign in with`;
  return why.error.replace(/^Initialization failed: /, '').replace(/\.$/, '');
}

function unauthorized(failed: FailedAttempt): LoupeError | undefined {
  if (failed.failure?.status !== 401) return undefined;
  const steps = failed.authSteps ?? [];
  if (failed.signIn) {
    return { code: 'OAUTH_FAILED', message: `Signing in failed: ${failed.signIn.error}`, hint: failed.signIn.hint, detail: { url: failed.failure.url, httpStatus: 401 } };
  }
  const why = notStartedWhy(failed);
  return {
    code: 'UNAUTHORIZED',
    message: why ? `The server wants a sign-in (HTTP 401), and Loupe could not start one: ${why}.` : 'The server wants credentials (HTTP 401), and Loupe could not sign in.',
    // The steps are in `detail.tried` (the page lists them); the hint keeps them as one line for a terminal.
    hint: `${steps.length > 0 ? `Discovery tried: ${describeProbe(steps)}. ` : ''}Give Loupe a client registered with the authorization server (--client-id, or the OAuth settings), or pass a token with --header "Authorization: Bearer …".`,
    detail: { url: failed.failure.url, httpStatus: 401, contentType: failed.failure.contentType, bodyStart: failed.failure.bodyStart || undefined, tried: steps.length > 0 ? steps : undefined },
  };
}

/** Initialize timed out while a POST was still open: the server took the request and went quiet. */
function noAnswer(failed: FailedAttempt): LoupeError | undefined {
  const waiting = failed.waiting;
  if (!waiting || failed.error.code !== 'TIMEOUT') return undefined;
  const type = waiting.contentType ? ` (${waiting.contentType})` : '';
  return {
    code: 'NO_ANSWER',
    message: `The server accepted the request but has not answered for ${waiting.seconds} s.`,
    hint:
      waiting.stage === 'no-headers'
        ? `The ${waiting.method} is connected and still waiting for response headers.`
        : `It sent the headers (HTTP ${waiting.status}${type}), but the body never came.`,
    detail: { url: waiting.url, httpStatus: waiting.status, contentType: waiting.contentType },
  };
}

function httpStatus(url: string, failed: FailedAttempt): LoupeError | undefined {
  const failure = failed.failure;
  if (failure?.status === undefined) return undefined;
  const isHtml = failure.contentType?.includes('html') ?? false;
  const notMcp = isHtml || failure.status === 404 || failure.status === 405 || (failure.status < 400 && !failure.contentType?.includes('json'));
  return {
    code: notMcp ? 'NOT_MCP' : 'HTTP_ERROR',
    message: notMcp
      ? `${url} does not look like an MCP endpoint: HTTP ${failure.status}${failure.contentType ? ` (${failure.contentType})` : ''}.`
      : `The server answered HTTP ${failure.status}${failure.contentType ? ` (${failure.contentType})` : ''}.`,
    hint: notMcp
      ? 'Check the path: Streamable HTTP servers usually answer at /mcp, legacy SSE servers at /sse.'
      : failure.status === 403
        ? 'The server wants credentials: pass them with --header "Authorization: Bearer …".'
        : undefined,
    detail: { url: failure.url, httpStatus: failure.status, contentType: failure.contentType, bodyStart: failure.bodyStart },
  };
}

export function describeAttemptFailure(url: string, failed: FailedAttempt): LoupeError {
  const specific = originRefused(failed) ?? versionMismatch(failed) ?? unauthorized(failed) ?? noAnswer(failed);
  if (specific) return specific;
  if (failed.failure?.networkError) {
    return {
      code: 'UNREACHABLE',
      message: `Could not reach ${url}: ${failed.failure.networkError}.`,
      hint: 'Is the server running, and on this port?',
      detail: { url },
    };
  }
  return httpStatus(url, failed) ?? failed.error;
}
