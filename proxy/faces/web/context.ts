/**
 * What the hub's message handlers (intercept.ts, oauth.ts, playground.ts, requests.ts,
 * workspace.ts) may use of it: the engine, and a way to answer a tab or tell every tab. The hub
 * (hub.ts) implements it and dispatches to them; they never see its sockets, its batching or its
 * snapshots. State a handler keeps per hub (the Playground's keys, the guided OAuth flows) is keyed
 * by this object.
 */
import type { WebSocket } from 'ws';
import type { LoupeError, ServerMessage } from '../../../lib/wire/wire.ts';
import type { Engine } from '../../engine/engine.ts';
import type { Session } from '../../session/session.ts';

export interface HubContext {
  /** The sessions, the workspace, the rules and holds, the OAuth callbacks: everything below the face. */
  readonly engine: Engine;
  /** One message to one tab. */
  sendTo(ws: WebSocket, message: ServerMessage): void;
  /** A message already serialised (a `response` built around the server's own frame text) to one tab. */
  sendText(ws: WebSocket, text: string): void;
  /**
   * Where the tab has this session's frames and joins a response to its frame (issue 23: a frame
   * crosses to the page once): the trace events queued so far go out now, with `response` in the
   * same message (after them, so the frame it refers to is there first), and true. Else false,
   * and nothing is sent.
   */
  sendJoined(ws: WebSocket, session: string, response: ServerMessage & { type: 'response' }): boolean;
  /** An `error` to one tab. */
  sendError(ws: WebSocket, error: LoupeError): void;
  /** A message to every tab, after the trace events already queued (it must not overtake them). */
  broadcastNow(message: ServerMessage): void;
  /** The workspace as it is now, to every tab. */
  broadcastWorkspace(): void;
  /** The tab's sessions: it is sent their trace and no other. */
  subscribe(ws: WebSocket, sessions: string[]): void;
  /** Runs `act` on the session `id`, or answers the tab with a NO_SESSION error. */
  withSession(ws: WebSocket, id: string, act: (s: Session) => void | Promise<void>): Promise<void>;
}
