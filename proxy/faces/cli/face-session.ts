/**
 * One session for a face that has no user at a page (issue 10: the CLI, smoke, verify): an engine
 * (engine.ts) with one session, the same `Session` the UI drives, and the server's requests
 * (sampling, elicitation) answered by a policy instead of waiting in the broker for a person.
 * No WebSocket, no HTTP server, no static files.
 */
import { DEFAULT_CHOICE } from '../../../lib/client/capabilities.ts';
import type { ServerConfig } from '../../../lib/model/server-config.ts';
import type { ClientCapabilityChoice, LoupeError } from '../../../lib/wire/wire.ts';
import { Engine, type EngineOptions, type ServerRequestPolicy } from '../../engine/engine.ts';
import type { Session, ClientSideOptions } from '../../session/session.ts';
import type { OAuthOptions } from '../../oauth/provider/provider.ts';
import type { TraceRecorder, TraceLimits } from '../../pipeline/trace-recorder.ts';

export type { ServerRequestPolicy } from '../../engine/engine.ts';

/** Declines everything: the answer of a client that cannot sample or ask anyone. */
export const declineAll: ServerRequestPolicy = (request) => ({
  ok: false,
  error: { code: -32601, message: `${request.method} is not available: nobody is at Loupe to answer (see --sample and --elicit).` },
});

export interface FaceSessionOptions {
  clientSide?: ClientSideOptions;
  policy?: ServerRequestPolicy;
  connectTimeoutMs?: number;
  traceLimits?: TraceLimits;
  /** Env / header names whose values are secret (masked in the trace's HTTP headers and recordings). */
  secretEnv?: string[];
  secretHeaders?: string[];
  /** Called with the recorder before the session connects (a `--record` writer subscribes here). */
  onTrace?: (trace: TraceRecorder) => void;
  /** Signing in with OAuth without a person (issue 11): the command line's options. */
  oauth?: OAuthOptions;
  rememberCredentials?: boolean;
  /** `--rules FILE` (issue 13): interception rules for the session. */
  rules?: EngineOptions['rules'];
}

export type FaceSession = { ok: true; session: Session; engine: Engine; close(): Promise<void> } | { ok: false; error: LoupeError; session: Session; engine: Engine; close(): Promise<void> };

/** The capabilities a face declares by default: everything it can answer by policy. */
export const FACE_CHOICE: ClientCapabilityChoice = { ...DEFAULT_CHOICE, sampling: true, elicitationForm: true, roots: true, rootsListChanged: true };

/** Connects a session for a face. Never throws: a failure to connect is `ok: false` with the same error the UI shows. */
export async function openFaceSession(config: ServerConfig, options: FaceSessionOptions = {}): Promise<FaceSession> {
  const engine = new Engine({
    traceLimits: options.traceLimits,
    connectTimeoutMs: options.connectTimeoutMs,
    policy: options.policy ?? declineAll,
    // No page to sign in from: the authorization server's redirect is followed (oauth-headless.ts).
    headless: true,
    oauth: options.oauth,
    rememberCredentials: options.rememberCredentials,
    rules: options.rules,
  });
  const session = engine.createSession(config, { secretEnv: options.secretEnv, secretHeaders: options.secretHeaders });
  options.onTrace?.(session.trace);
  await engine.start(session, { clientCapabilities: FACE_CHOICE, ...options.clientSide });
  const close = () => engine.shutdown();
  if (session.status === 'connected') return { ok: true, session, engine, close };
  return { ok: false, error: session.snapshot().error ?? { code: 'UNREACHABLE', message: 'Could not connect to the server.' }, session, engine, close };
}
