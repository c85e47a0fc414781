/**
 * Opens a remote session: Streamable HTTP first, then legacy SSE where the server answers the
 * first POST with a 4xx (the backwards-compatibility rule of the spec:
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#backwards-compatibility).
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { HttpConfig } from '../../lib/model/server-config.ts';
import type { LoupeError } from '../../lib/wire/wire.ts';
import { probeAuthDiscovery } from '../upstream/http/auth-probe.ts';
import { describeAttemptFailure, type FailedAttempt } from './remote-failure.ts';
import { createHttpTap, type HttpTap, type TapHooks } from '../upstream/http/tap.ts';
import { pluralEvents } from '../upstream/http/sse-watch.ts';
import { userHeaderFetch } from '../upstream/http/user-headers.ts';
import type { SessionOAuth } from './oauth.ts';
import type { TraceRecorder } from '../pipeline/trace-recorder.ts';
import type { PipelineContext } from '../pipeline/context.ts';
import { httpRuleOptions, withRules } from '../pipeline/pipeline.ts';

type Initialize = (transport: Transport) => Promise<{ ok: true } | { ok: false; error: LoupeError }>;

export type { FailedAttempt };

export type HttpAttempt = { ok: true; transport: 'http' | 'sse'; protocolVersion?: string; tap: HttpTap } | FailedAttempt;

/** What a connected remote session does when the server ends it or a stream drops (issue 8). */
export interface RemoteSession {
  /** This transport opened a session to replace one the server ended. */
  renewed: boolean;
  /** False once the session moved on (reconnected, disconnected): a stale transport's news is ignored. */
  isCurrent(): boolean;
  /** Fail what is pending with `error`, then initialize a new session on a fresh transport. */
  renew(error: LoupeError): void;
  /** Fail what is pending and the session itself with `error`. */
  drop(error: LoupeError): void;
}

/** Remembers the protocol version the SDK negotiates (it tells the transport, not the caller). */
function captureProtocolVersion(transport: Transport): () => string | undefined {
  let version: string | undefined;
  const original = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (value: string) => {
    version = value;
    original?.(value);
  };
  return () => version;
}

export function sessionEndedError(again: boolean): LoupeError {
  return again
    ? { code: 'SESSION_ENDED', message: 'The server ended the new session too (404) before answering anything; Loupe stopped.', hint: 'The server forgets sessions at once: check its session handling, then Connect again.' }
    : { code: 'SESSION_ENDED', message: 'The server ended the session (404): Loupe started a new one.', hint: 'Run the request again on the new session.' };
}

export function streamDroppedError(events: number, url: string, lastEventId?: string): LoupeError {
  const why = lastEventId === undefined ? 'the stream gave no event ids to resume from' : `resuming from Last-Event-ID ${lastEventId} failed`;
  return {
    code: 'STREAM_DROPPED',
    message: `The server's event stream dropped after ${pluralEvents(events)}.`,
    hint: `The requests waiting on it were failed; ${why}. Connect again to start a new session.`,
    detail: { url },
  };
}

/** The tap's news, turned into the session's actions; each transport ends its session at most once. */
function tapHooks(session: RemoteSession | undefined): TapHooks {
  if (!session) return {};
  let ended = false;
  return {
    onSessionEnded(answered) {
      if (ended || !session.isCurrent()) return undefined;
      ended = true;
      // A second 404 before the new session answered anything: no loop, fail plainly.
      const again = session.renewed && answered === 0;
      const error = sessionEndedError(again);
      if (again) session.drop(error);
      else session.renew(error);
      return error.message;
    },
    onStreamDropped(drop) {
      if (ended || !session.isCurrent()) return;
      ended = true;
      session.drop(streamDroppedError(drop.events, drop.url, drop.lastEventId));
    },
  };
}

/** Sign-ins per connect: the first authorization, and one more for a step-up while initializing. */
const MAX_SIGN_INS = 2;

async function attempt(kind: 'http' | 'sse', config: HttpConfig, trace: TraceRecorder, initialize: Initialize, session?: RemoteSession, oauth?: SessionOAuth, signIns = 0, pipeline?: PipelineContext): Promise<HttpAttempt> {
  const tap = createHttpTap(trace, kind, tapHooks(session), config.url);
  const url = new URL(config.url);
  const scoped = userHeaderFetch(tap, config);
  // The SDK runs the protocol (discovery, registration, PKCE, refresh, step-up) with this provider.
  const authProvider = await oauth?.provider(config.url);
  // A 403 insufficient_scope is noted so that the SDK's step-up signs in anew instead of refreshing.
  const fetch = authProvider ? authProvider.watchChallenges(scoped) : scoped;
  oauth?.useFetch(tap.fetch);
  const transport =
    kind === 'http'
      ? new StreamableHTTPClientTransport(url, { fetch, authProvider })
      : new SSEClientTransport(url, { fetch, eventSourceInit: { fetch }, authProvider });
  const version = captureProtocolVersion(transport);
  // Interception rules (issue 13) sit between the tapped transport and the SDK Client.
  const outcome = await initialize(withRules(transport, pipeline, httpRuleOptions(tap, transport, trace)));
  if (outcome.ok) return { ok: true, transport: kind, protocolVersion: version(), tap };
  // The SDK stopped at the authorization page (UnauthorizedError): get the code, trade it, go again.
  const pending = authProvider?.pendingAuthorization();
  if (oauth && pending && signIns < MAX_SIGN_INS) {
    const got = await oauth.obtainCode(pending, tap.fetch);
    const traded = got.ok ? await transport.finishAuth(got.code).then(() => undefined, (error: unknown) => (error instanceof Error ? error.message : String(error))) : got.error;
    await transport.close().catch(() => undefined);
    if (traded === undefined) return attempt(kind, config, trace, initialize, session, oauth, signIns + 1, pipeline);
    oauth.connectFailed(traded);
    return { ok: false, error: { code: 'OAUTH_FAILED', message: `Signing in at ${pending.host} failed: ${traded}`, hint: 'The OAuth tab runs the sign-in one step at a time and shows each request and answer.' } };
  }
  oauth?.connectFailed(outcome.error.message, outcome.error.hint);
  // Before closing: closing aborts what is still waiting, and the wait is the story.
  const waiting = tap.waiting();
  await transport.close().catch(() => undefined);
  const failure = tap.lastFailure();
  const failed: FailedAttempt = { ok: false, error: outcome.error, failure, waiting, versions: tap.versions(), sseEndpoint: tap.sseEndpoint() };
  if (failure?.status === 401) failed.authSteps = await probeAuthDiscovery(config.url, failure.wwwAuthenticate, tap.fetch);
  const auth = authProvider?.authState();
  // Only a failure Loupe named (it has a hint): the SDK's own words are no better than the discovery list.
  if (auth?.phase === 'failed' && auth.error && auth.hint) failed.signIn = { error: auth.error, hint: auth.hint };
  else if (auth?.phase === 'failed' && auth.error) failed.signInNotStarted = { error: auth.error, authorizationServer: auth.authorizationServer };
  return failed;
}

function shouldFallBack(result: HttpAttempt): boolean {
  if (result.ok) return false;
  const status = result.failure?.status;
  // 401/403 want credentials whichever transport is used; a version refusal is not about the transport.
  if (status === 401 || status === 403 || result.versions?.supported) return false;
  return status !== undefined && status >= 400 && status < 500;
}

/** A legacy SSE failure that names its own cause says more than the first POST's 4xx. */
function sseSaysMore(result: FailedAttempt): boolean {
  const code = describeAttemptFailure('', result).code;
  return code === 'ORIGIN_REFUSED' || code === 'VERSION_MISMATCH' || code === 'NO_ANSWER';
}

export async function openHttpTransport(config: HttpConfig, trace: TraceRecorder, initialize: Initialize, session?: RemoteSession, oauth?: SessionOAuth, pipeline?: PipelineContext): Promise<HttpAttempt> {
  if (config.transport === 'sse') return attempt('sse', config, trace, initialize, session, oauth, 0, pipeline);
  const first = await attempt('http', config, trace, initialize, session, oauth, 0, pipeline);
  if (config.transport === 'http' || !shouldFallBack(first)) return first;
  trace.record({ kind: 'transport', level: 'warn', message: `Streamable HTTP POST answered ${first.ok ? '' : first.failure?.status}; trying legacy SSE` });
  const second = await attempt('sse', config, trace, initialize, session, oauth, 0, pipeline);
  // When SSE fails too, the first failure usually says more (it is what the user asked for).
  return second.ok || sseSaysMore(second) ? second : first;
}

/** Turns a failed attempt into plain words (see http-failure.ts). */
export function describeHttpFailure(url: string, failed: FailedAttempt): LoupeError {
  return describeAttemptFailure(url, failed);
}
