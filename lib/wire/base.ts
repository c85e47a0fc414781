/**
 * The wire protocol's shared pieces (lib/wire/wire.ts): ids, errors, the client's capability choice,
 * server→client requests and sessions.
 */
import { z } from 'zod';
import { ServerConfigSchema } from '../model/server-config.ts';
import { OAuthStateSchema } from './oauth.ts';
import { ClientCapabilityChoiceSchema } from './capability-choice.ts';

export { ClientCapabilityChoiceSchema, type ClientCapabilityChoice } from './capability-choice.ts';

// ---------------------------------------------------------------------------------------------
// Shared pieces

/** JSON-RPC request ids are strings or integers (MCP forbids null). */
export const RequestIdSchema = z.union([z.string(), z.number()]);
export type RequestId = z.infer<typeof RequestIdSchema>;

/**
 * Local failures have string codes (STYLE.md habit 5); JSON-RPC errors from the server keep their
 * numeric code and arrive in `RpcError`.
 */
export const LoupeErrorCodeSchema = z.enum([
  'COMMAND_NOT_FOUND',
  'SPAWN_FAILED',
  'EXITED',
  'HTTP_ERROR',
  'NOT_MCP',
  'UNREACHABLE',
  'INIT_FAILED',
  'TIMEOUT',
  'CANCELLED',
  'NO_SESSION',
  'NOT_PENDING',
  'NOT_CONNECTED',
  'BAD_MESSAGE',
  'INTERNAL',
  // Remote servers (issue 8): each HTTP failure has its own code and sentence.
  'NO_ANSWER',
  'SESSION_ENDED',
  'STREAM_DROPPED',
  'ORIGIN_REFUSED',
  'VERSION_MISMATCH',
  'UNAUTHORIZED',
  // Signing in with OAuth failed (issue 11): the sentence names the step and the cause.
  'OAUTH_FAILED',
  // 2026-07-28 multi round trip (issue 12): the server kept asking, or the input was not given.
  'TOO_MANY_ROUNDS',
  'INPUT_REFUSED',
  /** An MCP Apps view could not be opened or acted on (issue 24); the message says why. */
  'VIEW',
  /** The server was restarted (its files changed, or Restart) while the request waited (issue 25). */
  'RESTARTED',
]);
export type LoupeErrorCode = z.infer<typeof LoupeErrorCodeSchema>;

export const LoupeErrorSchema = z.object({
  code: LoupeErrorCodeSchema,
  /** One plain sentence for the user, e.g. "Command not found: foo". */
  message: z.string(),
  /** What to try next, when we know. */
  hint: z.string().optional(),
  /** Facts behind the message; every field optional, all rendered as text. */
  detail: z
    .object({
      exitCode: z.number().nullable().optional(),
      signal: z.string().nullable().optional(),
      stderrTail: z.string().optional(),
      pathSearched: z.array(z.string()).optional(),
      httpStatus: z.number().optional(),
      contentType: z.string().optional(),
      bodyStart: z.string().optional(),
      url: z.string().optional(),
      /** The server→client request an answer was meant for (NOT_PENDING). */
      requestId: z.string().optional(),
      /** What Loupe tried, in order (the OAuth discovery after a 401): each step, its URL and what came back. */
      tried: z.array(z.object({ what: z.string(), url: z.string(), status: z.string() })).optional(),
    })
    .optional(),
});
export type LoupeError = z.infer<typeof LoupeErrorSchema>;

export const RpcErrorSchema = z.object({
  code: z.number(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type RpcError = z.infer<typeof RpcErrorSchema>;

// ---------------------------------------------------------------------------------------------
// What Loupe declares in `initialize` (the client's side: sampling, elicitation, roots, tasks)


export const RootSchema = z.object({ uri: z.string(), name: z.string().optional() });
export type Root = z.infer<typeof RootSchema>;

// ---------------------------------------------------------------------------------------------
// Server → client requests waiting for the user (sampling, elicitation; roots are answered from
// the session's root list without asking)

export const ServerRequestSchema = z.object({
  session: z.string(),
  /** The proxy's handle for it (the JSON-RPC id is the server's, and may repeat across sessions). */
  requestId: z.string(),
  /** The server's JSON-RPC id. */
  rpcId: RequestIdSchema,
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
  receivedAt: z.number(),
  /**
   * Set when the request came embedded in an `input_required` result (2026-07-28 multi round
   * trip) rather than as a server→client JSON-RPC request: which call asked (`call` is the
   * JSON-RPC id of the request whose result asked), under which key, in which round.
   */
  via: z.object({ call: RequestIdSchema, method: z.string(), key: z.string(), round: z.number() }).optional(),
  /** When Loupe will answer with an error by itself if nobody has (ms since the epoch). */
  deadline: z.number(),
});
export type ServerRequest = z.infer<typeof ServerRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Sessions

export const SessionStatusSchema = z.enum(['connecting', 'connected', 'disconnected', 'failed']);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

/** What the server said about itself in its `initialize` result. Server-supplied: render as text. */
export const ServerInfoSchema = z.object({
  name: z.string().optional(),
  version: z.string().optional(),
  title: z.string().optional(),
  websiteUrl: z.string().optional(),
  /** `icons` of the server's Implementation (2025-11-25); untrusted: load only data: URLs. */
  icons: z.array(z.record(z.string(), z.unknown())).optional(),
});

/** The notifications a `subscriptions/listen` stream asks for (2026-07-28), or the server honoured. */
export const SubscriptionFilterSchema = z.object({
  toolsListChanged: z.boolean().optional(),
  promptsListChanged: z.boolean().optional(),
  resourcesListChanged: z.boolean().optional(),
  resourceSubscriptions: z.array(z.string()).optional(),
});
export type SubscriptionFilter = z.infer<typeof SubscriptionFilterSchema>;

/** The session's `subscriptions/listen` stream, as the page shows it. */
export const ListenStateSchema = z.object({
  state: z.enum(['opening', 'open', 'closed']),
  filter: SubscriptionFilterSchema,
  /** From `notifications/subscriptions/acknowledged`. */
  honored: SubscriptionFilterSchema.optional(),
  /** The listen request's JSON-RPC id (the subscription id). */
  rpcId: RequestIdSchema.optional(),
  /** How it ended: you closed it, the server ended it (empty result), the stream dropped, or an error. */
  closed: z.enum(['local', 'graceful', 'remote', 'error']).optional(),
  error: z.string().optional(),
});
export type ListenState = z.infer<typeof ListenStateSchema>;

/**
 * Which generation a session speaks, and why (issue 12): the mode asked for, what Loupe
 * concluded, the probe it sent and the answer it got, in plain words.
 */
export const NegotiationSchema = z.object({
  mode: z.enum(['2025-11-25', '2026-07-28', 'auto']),
  era: z.enum(['legacy', 'modern']),
  /** One sentence: what was concluded and why. */
  reason: z.string(),
  /** The probe as sent (method and version asked), when there was one. */
  probe: z.string().optional(),
  /** The answer to the probe, in short (a result's versions, an error's code and message, a timeout). */
  answer: z.string().optional(),
});
export type Negotiation = z.infer<typeof NegotiationSchema>;

export const SessionInfoSchema = z.object({
  id: z.string(),
  /** The server's name, unique among sessions (config.name, else derived; a clash is renamed NAME-2 with a workspace note). Issue 9. */
  name: z.string(),
  /**
   * As the user wrote it, except that the values of `secretEnv` / `secretHeaders` are their
   * reference text (`${input:NAME}` / `${env:NAME}`): the proxy never sends a secret to the page.
   * A config sent back with that same reference text keeps the value the proxy holds.
   */
  config: ServerConfigSchema,
  /** Listed, not started ("disabled": true in the workspace file). */
  disabled: z.boolean().optional(),
  /** Env names / header names whose values are secret (written as references, never as values). */
  secretEnv: z.array(z.string()).optional(),
  secretHeaders: z.array(z.string()).optional(),
  /** Inputs (`${input:ID}` ids) this server waits for before it can start; meanwhile its status is `disconnected` and `note` says so. */
  waitingForInputs: z.array(z.string()).optional(),
  /** A plain note on the status that is not an error (e.g. "Waiting for input api-key"). */
  note: z.string().optional(),
  status: SessionStatusSchema,
  /** Milliseconds since the epoch of the last status change. */
  since: z.number(),
  error: LoupeErrorSchema.optional(),
  serverInfo: ServerInfoSchema.optional(),
  protocolVersion: z.string().optional(),
  /** `capabilities` from the `initialize` result, as sent. */
  capabilities: z.record(z.string(), z.unknown()).optional(),
  instructions: z.string().optional(),
  /** Transport actually in use (`sse` after a fallback). */
  transport: z.enum(['stdio', 'http', 'sse']).optional(),
  /** Process id of a stdio child, while it runs. */
  pid: z.number().optional(),
  /** What Loupe declared in `initialize` for this connection. */
  clientCapabilities: ClientCapabilityChoiceSchema.optional(),
  /** The roots Loupe answers `roots/list` with. */
  roots: z.array(RootSchema).optional(),
  /** Milliseconds a server→client request may wait for the user before Loupe answers an error. */
  serverRequestTimeoutMs: z.number().optional(),
  /** Milliseconds `initialize` may take: while `connecting`, the deadline is `since` + this. */
  connectTimeoutMs: z.number().optional(),
  /** Signing in with OAuth (issue 11): the phase, the page to open, scope and expiry; never a token. */
  auth: OAuthStateSchema.optional(),
  /** `legacy`: a 2025 `initialize` session; `modern`: 2026-07-28, stateless (issue 12). */
  era: z.enum(['legacy', 'modern']).optional(),
  negotiation: NegotiationSchema.optional(),
  /** What `server/discover` said beside capabilities and instructions (modern sessions). */
  discovery: z
    .object({
      supportedVersions: z.array(z.string()),
      /** `capabilities.extensions`, as sent. */
      extensions: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  /** The log level Loupe puts in each request's `_meta` (modern sessions; absent: none asked). */
  logLevel: z.string().optional(),
  listen: ListenStateSchema.optional(),
  /**
   * A session Loupe watches rather than makes (issue 13): a host's stdio session through
   * `--tap`, or an HTTP client's through `--gateway`. Loupe sends nothing of its own on it.
   */
  relay: z
    .object({
      kind: z.enum(['tap', 'gateway']),
      /** `--label`, else the host's `clientInfo` name and version once it sent initialize. */
      label: z.string().optional(),
      client: z.object({ name: z.string(), version: z.string().optional() }).optional(),
      /** The tap's own pid (the host started it). */
      pid: z.number().optional(),
    })
    .optional(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;
