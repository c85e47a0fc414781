/**
 * The browser's picture of the proxy: the sessions, their counts, the workspace and the socket's
 * health. Trace events are not here: each session's live in its EventLog (session-port.ts), owned
 * by the tab store, so that a batch never copies state. Which server the page shows is navigation
 * (nav-store.ts), not state of the proxy (issue 9).
 * Pure functions over an immutable state, so the store is a thin shell and this is testable.
 */
import type { LoupeError, ServerMessage, SessionInfo, TraceStats, WorkspaceState } from '../../lib/wire/wire.ts';

/** Invalid envelopes and proxy errors kept for display. */
const NOTE_CAP = 20;

export type SocketPhase = 'no-token' | 'connecting' | 'open' | 'waiting';

export interface SocketState {
  phase: SocketPhase;
  /** Failed attempts since the last successful open. */
  attempt: number;
  /** When the next attempt starts (phase `waiting`), ms since the epoch. */
  retryAt?: number;
  /** Whether any socket of this tab ever opened. */
  everOpened: boolean;
}

export interface InvalidMessage {
  at: number;
  error: string;
  /** The start of the offending text. */
  text: string;
}

export interface LoupeState {
  socket: SocketState;
  /** True once the current socket delivered its snapshot. */
  synced: boolean;
  /** How many snapshots arrived so far (each socket sends one). */
  syncCount: number;
  sessions: Readonly<Record<string, SessionInfo>>;
  /** Session ids in the order the proxy first told us about them. */
  order: readonly string[];
  primary?: string;
  /** The proxy's trace counts per session (every session, subscribed or not). */
  stats: Readonly<Record<string, TraceStats>>;
  /** The workspace the proxy holds (saved calls, inputs it waits for, notes). */
  workspace?: WorkspaceState;
  invalid: { count: number; recent: readonly InvalidMessage[] };
  proxyErrors: readonly { at: number; error: LoupeError }[];
}

export function initialState(phase: SocketPhase = 'connecting'): LoupeState {
  return {
    socket: { phase, attempt: 0, everOpened: false },
    synced: false,
    syncCount: 0,
    sessions: {},
    order: [],
    stats: {},
    invalid: { count: 0, recent: [] },
    proxyErrors: [],
  };
}

function keepLast<T>(items: readonly T[], cap: number): T[] {
  return items.length > cap ? items.slice(items.length - cap) : [...items];
}

function statsRecord(stats: readonly TraceStats[], base: Readonly<Record<string, TraceStats>> = {}): Record<string, TraceStats> {
  const record = { ...base };
  for (const s of stats) record[s.session] = s;
  return record;
}

function applySnapshot(state: LoupeState, message: Extract<ServerMessage, { type: 'snapshot' }>): LoupeState {
  const sessions: Record<string, SessionInfo> = {};
  for (const session of message.sessions) sessions[session.id] = session;
  return {
    ...state,
    synced: true,
    syncCount: state.syncCount + 1,
    sessions,
    order: message.sessions.map((s) => s.id),
    primary: message.primary,
    stats: statsRecord(message.stats),
    workspace: message.workspace ?? state.workspace,
  };
}

function applySession(state: LoupeState, session: SessionInfo): LoupeState {
  const sessions = { ...state.sessions, [session.id]: session };
  const order = state.order.includes(session.id) ? state.order : [...state.order, session.id];
  return { ...state, sessions, order };
}

function removeSession(state: LoupeState, id: string): LoupeState {
  if (!state.sessions[id]) return state;
  const { [id]: _gone, ...sessions } = state.sessions;
  const { [id]: _stats, ...stats } = state.stats;
  return { ...state, sessions, stats, order: state.order.filter((s) => s !== id), primary: state.primary === id ? undefined : state.primary };
}

/** Fold one validated proxy message into the state (events, responses and requests go to their stores). */
export function applyMessage(state: LoupeState, message: ServerMessage): LoupeState {
  switch (message.type) {
    case 'snapshot':
      return applySnapshot(state, message);
    case 'session':
    case 'server-added':
      return applySession(state, message.session);
    case 'session-removed':
      return removeSession(state, message.session);
    case 'events':
      return message.stats ? { ...state, stats: statsRecord(message.stats, state.stats) } : state;
    case 'trace-reset':
      return { ...state, stats: statsRecord([message.stats], state.stats) };
    case 'workspace':
      return { ...state, workspace: message.workspace };
    case 'error':
      return { ...state, proxyErrors: keepLast([...state.proxyErrors, { at: Date.now(), error: message.error }], NOTE_CAP) };
    default:
      // response, progress, server requests, workspace-saved …: handled by the stores that own them.
      return state;
  }
}

export function recordInvalid(state: LoupeState, text: string, error: string): LoupeState {
  const entry: InvalidMessage = { at: Date.now(), error, text: text.slice(0, 500) };
  return { ...state, invalid: { count: state.invalid.count + 1, recent: keepLast([...state.invalid.recent, entry], NOTE_CAP) } };
}

/** The session a tab shows first: the primary (the launch target), else the first known. */
export function defaultSession(state: Pick<LoupeState, 'primary' | 'order' | 'sessions'>): string | undefined {
  if (state.primary !== undefined && state.sessions[state.primary]) return state.primary;
  return state.order[0];
}
