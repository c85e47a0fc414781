/**
 * One session for a face that has no user at a page (issue 10: the CLI, smoke, verify): the same
 * `Session` the UI drives, with the server's requests (sampling, elicitation) answered by a policy
 * instead of waiting in the broker for a person. No WebSocket, no HTTP server, no static files.
 */
import { DEFAULT_CHOICE } from '../lib/client-capabilities.ts';
import type { ServerConfig } from '../lib/server-config-types.ts';
import type { ClientCapabilityChoice, LoupeError, ServerRequest } from '../lib/wire.ts';
import { ServerRequestBroker, type ServerRequestOutcome } from './server-requests.ts';
import { Session, type ClientSideOptions } from './session.ts';
import { DEFAULT_TRACE_LIMITS, TraceRecorder, type TraceLimits } from './trace-recorder.ts';

/** How a face answers a request the server sends (sampling/createMessage, elicitation/create). */
export type ServerRequestPolicy = (request: ServerRequest) => ServerRequestOutcome | Promise<ServerRequestOutcome>;

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
  /** Called with the recorder before the session connects (a `--record` writer subscribes here). */
  onTrace?: (trace: TraceRecorder) => void;
  id?: string;
}

export type FaceSession = { ok: true; session: Session; close(): Promise<void> } | { ok: false; error: LoupeError; session: Session; close(): Promise<void> };

/** The capabilities a face declares by default: everything it can answer by policy. */
export const FACE_CHOICE: ClientCapabilityChoice = { ...DEFAULT_CHOICE, sampling: true, elicitationForm: true, roots: true, rootsListChanged: true };

/** Connects a session for a face. Never throws: a failure to connect is `ok: false` with the same error the UI shows. */
export async function openFaceSession(config: ServerConfig, options: FaceSessionOptions = {}): Promise<FaceSession> {
  const id = options.id ?? 's1';
  const trace = new TraceRecorder(id, options.traceLimits ?? DEFAULT_TRACE_LIMITS);
  options.onTrace?.(trace);
  const policy = options.policy ?? declineAll;
  const broker: ServerRequestBroker = new ServerRequestBroker({
    added: (request) => {
      void Promise.resolve()
        .then(() => policy(request))
        .catch((error: unknown): ServerRequestOutcome => ({ ok: false, error: { code: -32603, message: error instanceof Error ? error.message : String(error) } }))
        .then((outcome) => broker.respond(request.session, request.requestId, outcome));
    },
    done: () => undefined,
  });
  const session = new Session(id, config, trace, () => undefined, broker, options.connectTimeoutMs);
  await session.connect(config, { clientCapabilities: FACE_CHOICE, ...options.clientSide });
  const close = () => session.shutdown();
  if (session.status === 'connected') return { ok: true, session, close };
  return { ok: false, error: session.snapshot().error ?? { code: 'UNREACHABLE', message: 'Could not connect to the server.' }, session, close };
}
