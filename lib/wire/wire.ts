/**
 * The wire protocol between the browser UI and the proxy (docs/architecture.md, "The wire protocol").
 *
 * One WebSocket per tab at `/ws?token=…`. Every message is one JSON envelope with a `type`.
 * Both ends validate what they receive with these schemas; nothing else defines the protocol.
 */
import { z } from 'zod';
import { ServerConfigSchema } from '../model/server-config.ts';
import { ClientCapabilityChoiceSchema, LoupeErrorSchema, RootSchema, RpcErrorSchema, ServerRequestSchema, SessionInfoSchema } from './base.ts';
import { TraceEventSchema, TraceStatsSchema } from './events.ts';
import { EventsMessageSchema, ProgressMessageSchema, ResponseMessageSchema } from './response.ts';
import { ConfigLocationSchema, SavedCallSchema, SavedQuerySchema, TESTS_CLIENT_MESSAGES, WorkspaceStateSchema } from './workspace.ts';
import { ListenMessageSchema, SetLogLevelMessageSchema, UnlistenMessageSchema } from './modern.ts';
import { DoctorReportMessageSchema, RunDoctorMessageSchema } from './doctor.ts';
import { HoldDoneMessageSchema, HoldMessageSchema, ReleaseAllMessageSchema, ReleaseHoldMessageSchema, RulesMessageSchema, SetRulesMessageSchema } from './intercept.ts';
import { HeldFrameSchema, RuleSchema } from '../model/rules.ts';
import { RequestMessageSchema, type RequestMessage } from './request.ts';
import { readClientText } from './quick-read.ts';
import { liftFrame, putBackApart } from './envelope-text.ts';
import { PLAYGROUND_CLIENT_MESSAGES, PLAYGROUND_SERVER_MESSAGES, PlaygroundKeysSchema } from './playground.ts';
import { APPS_CLIENT_MESSAGES, APPS_SERVER_MESSAGES } from './apps.ts';
import { SurfacePointMessageSchema, SurfacePointSchema } from './surface.ts';
import { OAuthForgetMessageSchema, OAuthGuidedMessageSchema, OAuthGuidedStateMessageSchema, OAuthSettingsMessageSchema } from './oauth.ts';
// The `request` envelope is defined beside its hand-written reader (request.ts); its names stay here too.
export { RequestMessageSchema, type RequestMessage };

export * from './base.ts';
export * from './events.ts';
export * from './response.ts';
export * from './workspace.ts';
export * from './modern.ts';
export * from './doctor.ts';
export * from './intercept.ts';
export * from './playground.ts';
export * from './apps.ts';
export * from './surface.ts';

import { WIRE_VERSION } from './constants.ts';
export { WIRE_VERSION, SNAPSHOT_TAIL_EVENTS } from './constants.ts';

// ---------------------------------------------------------------------------------------------
// UI → proxy

export const ConnectMessageSchema = z.object({
  type: z.literal('connect'),
  config: ServerConfigSchema,
  /** Defaults: everything on. */
  clientCapabilities: ClientCapabilityChoiceSchema.optional(),
  roots: z.array(RootSchema).optional(),
  serverRequestTimeoutMs: z.number().positive().optional(),
  /** How long `initialize` may take (absent: the session's current value, default 30 000 or `--connect-timeout`). */
  connectTimeoutMs: z.number().int().positive().max(3_600_000).optional(),
  /** Close this session first and reuse its id (a reconnect keeps one history). */
  session: z.string().optional(),
});

export const DisconnectMessageSchema = z.object({ type: z.literal('disconnect'), session: z.string() });

/**
 * Any JSON-RPC message, sent on the session's transport as given: a request (its response comes
 * back as a `response` to `id`), a notification (acknowledged at once), or anything else an
 * inspector may need to send to see what the server does with it.
 */
export const SendRawMessageSchema = z.object({
  type: z.literal('send-raw'),
  session: z.string(),
  id: z.string(),
  /** The message as an object (short messages, tests); `text` wins when both are given. */
  message: z.record(z.string(), z.unknown()).optional(),
  /**
   * The message as JSON text, written to the server exactly (newlines outside strings removed, as
   * stdio framing needs): a message of any depth passes, where a serialiser would throw (issue 8).
   */
  text: z.string().optional(),
  origin: z.enum(['replay', 'edited', 'composer']).default('composer'),
  timeoutMs: z.number().positive().optional(),
  /**
   * HTTP headers for this one POST (HTTP sessions only), set over the transport's own: to see
   * what a server does with a wrong `Mcp-Method` or a stray `Mcp-Session-Id` (issue 12).
   */
  headers: z.record(z.string(), z.string()).optional(),
});

/** The user's answer to a server→client request. */
export const RespondMessageSchema = z.object({
  type: z.literal('respond'),
  session: z.string(),
  requestId: z.string(),
  outcome: z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), result: z.record(z.string(), z.unknown()) }),
    z.object({ ok: z.literal(false), error: RpcErrorSchema }),
  ]),
});

/** Replace the session's roots; the proxy sends `notifications/roots/list_changed` when declared. */
export const SetRootsMessageSchema = z.object({
  type: z.literal('set-roots'),
  session: z.string(),
  roots: z.array(RootSchema),
});

export const CancelMessageSchema = z.object({
  type: z.literal('cancel'),
  session: z.string(),
  id: z.string(),
});

const secretNames = {
  /** Env names / header names whose values are secret (issue 9). */
  secretEnv: z.array(z.string()).optional(),
  secretHeaders: z.array(z.string()).optional(),
};

/** A new session (issue 9); broadcast as `session`, and the asking tab gets `server-added`. */
export const AddServerMessageSchema = z.object({
  type: z.literal('add-server'),
  config: ServerConfigSchema,
  /** Default true (a disabled server never connects until it is enabled). */
  connect: z.boolean().optional(),
  /** Listed, not started (`"disabled": true` in the file it came from). */
  disabled: z.boolean().optional(),
  /** Keys of its entry Loupe does not use (autoApprove, timeout…), kept so that a save does not lose them. */
  other: z.record(z.string(), z.unknown()).optional(),
  savedCalls: z.array(SavedCallSchema).optional(),
  ...secretNames,
  clientCapabilities: ClientCapabilityChoiceSchema.optional(),
  roots: z.array(RootSchema).optional(),
  serverRequestTimeoutMs: z.number().positive().optional(),
  connectTimeoutMs: z.number().int().positive().max(3_600_000).optional(),
  requestId: z.string().optional(),
});

/** Edit a session's config; it reconnects when it was connected. */
export const UpdateServerMessageSchema = z.object({
  type: z.literal('update-server'),
  session: z.string(),
  config: ServerConfigSchema,
  ...secretNames,
  clientCapabilities: ClientCapabilityChoiceSchema.optional(),
});

/** Disconnect and forget a session; broadcast `session-removed`. */
export const RemoveServerMessageSchema = z.object({ type: z.literal('remove-server'), session: z.string() });

/** Disconnect and connect again with the same config and choices. */
export const RestartMessageSchema = z.object({ type: z.literal('restart'), session: z.string() });

/**
 * The sessions this tab wants full trace events for (`["*"]`: all); replaces the tab's set. Each
 * newly subscribed session gets a `trace-reset` with everything kept, then live `events`.
 */
export const SubscribeMessageSchema = z.object({ type: z.literal('subscribe'), sessions: z.array(z.string()) });

/** Write the workspace file (`path` absent: the one given by --config or saved to before). */
export const SaveWorkspaceMessageSchema = z.object({
  type: z.literal('save-workspace'),
  requestId: z.string(),
  path: z.string().optional(),
  /** Write even when the file changed on disk since Loupe read or wrote it. */
  overwrite: z.boolean().optional(),
});

export const SetSavedCallsMessageSchema = z.object({
  type: z.literal('set-saved-calls'),
  session: z.string(),
  calls: z.array(SavedCallSchema),
});

/** Replace the workspace's saved History queries (issue 26); broadcast as `workspace`. */
export const SetSavedQueriesMessageSchema = z.object({
  type: z.literal('set-saved-queries'),
  queries: z.array(SavedQuerySchema),
});

/** Answers to `${input:ID}` prompts, held in the proxy's memory only. */
export const ProvideInputsMessageSchema = z.object({ type: z.literal('provide-inputs'), values: z.record(z.string(), z.string()) });

export const ListConfigLocationsMessageSchema = z.object({ type: z.literal('list-config-locations'), requestId: z.string() });

export const ClientMessageSchema = z.discriminatedUnion('type', [
  ConnectMessageSchema,
  DisconnectMessageSchema,
  RequestMessageSchema,
  CancelMessageSchema,
  SendRawMessageSchema,
  RespondMessageSchema,
  SetRootsMessageSchema,
  AddServerMessageSchema,
  UpdateServerMessageSchema,
  RemoveServerMessageSchema,
  RestartMessageSchema,
  SubscribeMessageSchema,
  SaveWorkspaceMessageSchema,
  SetSavedCallsMessageSchema,
  SetSavedQueriesMessageSchema,
  ...TESTS_CLIENT_MESSAGES,
  ProvideInputsMessageSchema,
  ListConfigLocationsMessageSchema,
  OAuthSettingsMessageSchema,
  OAuthForgetMessageSchema,
  OAuthGuidedMessageSchema,
  ListenMessageSchema,
  UnlistenMessageSchema,
  SetLogLevelMessageSchema,
  RunDoctorMessageSchema,
  SetRulesMessageSchema,
  ReleaseHoldMessageSchema,
  ReleaseAllMessageSchema,
  ...PLAYGROUND_CLIENT_MESSAGES,
  ...APPS_CLIENT_MESSAGES,
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;
export type SendRawMessage = z.infer<typeof SendRawMessageSchema>;
export type RespondMessage = z.infer<typeof RespondMessageSchema>;
export type AddServerMessage = z.infer<typeof AddServerMessageSchema>;
export type UpdateServerMessage = z.infer<typeof UpdateServerMessageSchema>;
export type SaveWorkspaceMessage = z.infer<typeof SaveWorkspaceMessageSchema>;

// ---------------------------------------------------------------------------------------------
// proxy → UI

/** Sent once per WebSocket, first: everything needed to draw the page after a (re)load. */
export const SnapshotMessageSchema = z.object({
  type: z.literal('snapshot'),
  version: z.literal(WIRE_VERSION),
  sessions: z.array(SessionInfoSchema),
  /** The tail of each session's trace (the last SNAPSHOT_TAIL_EVENTS); the whole of it comes with `subscribe` → `trace-reset`. */
  events: z.array(TraceEventSchema),
  stats: z.array(TraceStatsSchema),
  workspace: WorkspaceStateSchema.optional(),
  /** Set when the proxy was started with a target: the UI shows this session first. */
  primary: z.string().optional(),
  /** Server→client requests still waiting for an answer (they survive a page reload). */
  serverRequests: z.array(ServerRequestSchema).optional(),
  /** The interception rules in force and the frames held now (issue 13). */
  rules: z.array(RuleSchema).optional(),
  holds: z.array(HeldFrameSchema).optional(),
  /** The keys the Playground can use, by name (issue 15). */
  playgroundKeys: PlaygroundKeysSchema.optional(),
  /** Each session's surface history (issue 25), by session id. */
  surfaces: z.record(z.string(), z.array(SurfacePointSchema)).optional(),
});

export const SessionMessageSchema = z.object({ type: z.literal('session'), session: SessionInfoSchema });

export const SessionRemovedMessageSchema = z.object({ type: z.literal('session-removed'), session: z.string() });


/** A server→client request arrived (to every tab). */
export const ServerRequestMessageSchema = z.object({ type: z.literal('server-request'), request: ServerRequestSchema });

/** A server→client request was answered (by a tab, by the timeout, or the session closed). */
export const ServerRequestDoneMessageSchema = z.object({
  type: z.literal('server-request-done'),
  session: z.string(),
  requestId: z.string(),
  how: z.enum(['answered', 'timed-out', 'cancelled', 'session-closed']),
});

/** The proxy could not act on an envelope (bad JSON, unknown type, unknown session). */
export const ErrorMessageSchema = z.object({ type: z.literal('error'), error: LoupeErrorSchema });

/** The workspace model changed (saved calls, inputs needed, notes, path). Also in the snapshot. */
export const WorkspaceMessageSchema = z.object({ type: z.literal('workspace'), workspace: WorkspaceStateSchema });

/** Everything the proxy kept for a session this tab just subscribed to: replaces what the tab holds. */
export const TraceResetMessageSchema = z.object({
  type: z.literal('trace-reset'),
  session: z.string(),
  events: z.array(TraceEventSchema),
  stats: TraceStatsSchema,
});

/** To the tab that sent `add-server` (every tab also gets the `session`). */
export const ServerAddedMessageSchema = z.object({ type: z.literal('server-added'), requestId: z.string().optional(), session: SessionInfoSchema });

/** `path`: absolute, as written. */
export const WorkspaceSavedMessageSchema = z.object({ type: z.literal('workspace-saved'), requestId: z.string(), path: z.string() });

/** The file changed on disk since Loupe read or wrote it: nothing written; resend with `overwrite: true` to replace it. */
export const WorkspaceConflictMessageSchema = z.object({ type: z.literal('workspace-conflict'), requestId: z.string(), path: z.string(), reason: z.string() });

export const ConfigLocationsMessageSchema = z.object({ type: z.literal('config-locations'), requestId: z.string(), locations: z.array(ConfigLocationSchema) });

/**
 * One schema per `type` (a discriminated union, the `response` one nested on `ok`): a message is
 * checked against its own schema only (issue 9: an `events` batch was checked against two).
 */
export const ServerMessageSchema = z.discriminatedUnion('type', [
  SnapshotMessageSchema,
  SessionMessageSchema,
  SessionRemovedMessageSchema,
  EventsMessageSchema,
  ResponseMessageSchema,
  ErrorMessageSchema,
  ProgressMessageSchema,
  ServerRequestMessageSchema,
  ServerRequestDoneMessageSchema,
  WorkspaceMessageSchema,
  TraceResetMessageSchema,
  ServerAddedMessageSchema,
  WorkspaceSavedMessageSchema,
  WorkspaceConflictMessageSchema,
  ConfigLocationsMessageSchema,
  OAuthGuidedStateMessageSchema,
  DoctorReportMessageSchema,
  RulesMessageSchema,
  HoldMessageSchema,
  HoldDoneMessageSchema,
  SurfacePointMessageSchema,
  ...PLAYGROUND_SERVER_MESSAGES,
  ...APPS_SERVER_MESSAGES,
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;
export type SnapshotMessage = z.infer<typeof SnapshotMessageSchema>;
export type EventsMessage = z.infer<typeof EventsMessageSchema>;
export type TraceResetMessage = z.infer<typeof TraceResetMessageSchema>;
export type WorkspaceMessage = z.infer<typeof WorkspaceMessageSchema>;

/** Parse an incoming envelope; failures are values. */
export function parseClientMessage(text: string): { ok: true; message: ClientMessage } | { ok: false; error: string } {
  const read = readClientText(text);
  return read.ok === 'schemas' ? parseClientData(read.data) : read;
}

/** An envelope already parsed from JSON that quick-read.ts left to the schemas. */
export function parseClientData(data: unknown): { ok: true; message: ClientMessage } | { ok: false; error: string } {
  const parsed = ClientMessageSchema.safeParse(data);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, error: parsed.error.message };
}

/** The messages one envelope stands for, in order: an `events` message with its `response` is two. */
export function messagesOf(message: ServerMessage): ServerMessage[] {
  if (message.type !== 'events' || message.response === undefined) return [message];
  const { response, ...events } = message;
  return [events, response];
}

/**
 * `apart`: frame texts that came as binary messages before this one, oldest first (a tab that joins
 * frames gets a long frame's text that way, its event marked `rawApart`); each marked event takes
 * the next, and is taken off the list.
 */
export function parseServerMessage(text: string, apart?: string[]): { ok: true; message: ServerMessage } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  if (apart && apart.length > 0) putBackApart(data, apart);
  const parsed = ServerMessageSchema.safeParse(liftFrame(data));
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, error: parsed.error.message };
}
