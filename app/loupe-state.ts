/**
 * The browser's picture of the proxy: sessions, their trace events and the socket's health.
 * Pure functions over an immutable state, so the store is a thin shell and this is testable.
 */
import type { LoupeError, ServerMessage, SessionInfo, TraceEvent, TraceStats } from '../lib/wire.ts';

/**
 * Events kept per session in the tab; the proxy has its own bound (50,000 by default,
 * `--trace-limit`) and reports its drops in stats. 100,000 so that the tab can hold all the proxy
 * keeps at a raised limit; the History view is windowed and indexed incrementally to match.
 */
export const EVENT_CAP = 100_000;
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
  /** The session this tab shows. */
  current?: string;
  events: Readonly<Record<string, readonly TraceEvent[]>>;
  /** Events this tab let go because of EVENT_CAP, per session. */
  localDropped: Readonly<Record<string, number>>;
  stats: Readonly<Record<string, TraceStats>>;
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
    events: {},
    localDropped: {},
    stats: {},
    invalid: { count: 0, recent: [] },
    proxyErrors: [],
  };
}

function keepLast<T>(items: readonly T[], cap: number): T[] {
  return items.length > cap ? items.slice(items.length - cap) : [...items];
}

function groupBySession(events: readonly TraceEvent[]): Map<string, TraceEvent[]> {
  const groups = new Map<string, TraceEvent[]>();
  for (const event of events) {
    const list = groups.get(event.session);
    if (list) list.push(event);
    else groups.set(event.session, [event]);
  }
  return groups;
}

function statsRecord(stats: readonly TraceStats[], base: Readonly<Record<string, TraceStats>> = {}): Record<string, TraceStats> {
  const record = { ...base };
  for (const s of stats) record[s.session] = s;
  return record;
}

function pickCurrent(state: Pick<LoupeState, 'current' | 'primary' | 'order' | 'sessions'>): string | undefined {
  if (state.current !== undefined && state.sessions[state.current]) return state.current;
  if (state.primary !== undefined && state.sessions[state.primary]) return state.primary;
  return state.order[0];
}

/** Append events, keeping at most EVENT_CAP per session and counting what was let go. */
export function appendEvents(state: LoupeState, incoming: readonly TraceEvent[]): LoupeState {
  if (incoming.length === 0) return state;
  const events = { ...state.events };
  const localDropped = { ...state.localDropped };
  for (const [session, list] of groupBySession(incoming)) {
    const merged = [...(events[session] ?? []), ...list];
    const over = merged.length - EVENT_CAP;
    if (over > 0) localDropped[session] = (localDropped[session] ?? 0) + over;
    events[session] = over > 0 ? merged.slice(over) : merged;
  }
  return { ...state, events, localDropped };
}

function applySnapshot(state: LoupeState, message: Extract<ServerMessage, { type: 'snapshot' }>): LoupeState {
  const sessions: Record<string, SessionInfo> = {};
  for (const session of message.sessions) sessions[session.id] = session;
  const base: LoupeState = {
    ...state,
    synced: true,
    syncCount: state.syncCount + 1,
    sessions,
    order: message.sessions.map((s) => s.id),
    primary: message.primary,
    events: {},
    localDropped: {},
    stats: statsRecord(message.stats),
  };
  const next = appendEvents(base, message.events);
  return { ...next, current: pickCurrent(next) };
}

function applySession(state: LoupeState, session: SessionInfo): LoupeState {
  const sessions = { ...state.sessions, [session.id]: session };
  const order = state.order.includes(session.id) ? state.order : [...state.order, session.id];
  const next = { ...state, sessions, order };
  return { ...next, current: pickCurrent(next) };
}

function removeSession(state: LoupeState, id: string): LoupeState {
  const { [id]: _gone, ...sessions } = state.sessions;
  const next = { ...state, sessions, order: state.order.filter((s) => s !== id) };
  return { ...next, current: pickCurrent({ ...next, current: state.current === id ? undefined : state.current }) };
}

/** Fold one validated proxy message into the state (responses are handled by the store). */
export function applyMessage(state: LoupeState, message: ServerMessage): LoupeState {
  switch (message.type) {
    case 'snapshot':
      return applySnapshot(state, message);
    case 'session':
      return applySession(state, message.session);
    case 'session-removed':
      return removeSession(state, message.session);
    case 'events': {
      const next = appendEvents(state, message.events);
      return message.stats ? { ...next, stats: statsRecord(message.stats, next.stats) } : next;
    }
    case 'error':
      return { ...state, proxyErrors: keepLast([...state.proxyErrors, { at: Date.now(), error: message.error }], NOTE_CAP) };
    case 'response':
    case 'progress':
    case 'server-request':
    case 'server-request-done':
      // Handled by the stores that own requests (call-store) and server requests.
      return state;
  }
}

export function recordInvalid(state: LoupeState, text: string, error: string): LoupeState {
  const entry: InvalidMessage = { at: Date.now(), error, text: text.slice(0, 500) };
  return { ...state, invalid: { count: state.invalid.count + 1, recent: keepLast([...state.invalid.recent, entry], NOTE_CAP) } };
}

export function selectSession(state: LoupeState, id: string): LoupeState {
  return state.sessions[id] ? { ...state, current: id } : state;
}

/** The session this tab shows, if any. */
export function currentSession(state: LoupeState): SessionInfo | undefined {
  return state.current === undefined ? undefined : state.sessions[state.current];
}

const NO_EVENTS: readonly TraceEvent[] = [];

export function currentEvents(state: LoupeState): readonly TraceEvent[] {
  return (state.current !== undefined && state.events[state.current]) || NO_EVENTS;
}
