/** The identity of the current session's current connection: per-connection state resets when it changes. */
import type { SessionInfo } from '../lib/wire.ts';
import { currentSession, type LoupeState } from './loupe-state.ts';

export function connectionKey(session: SessionInfo | undefined): string | undefined {
  return session?.status === 'connected' ? `${session.id}@${session.since}` : undefined;
}

export function currentConnection(state: LoupeState): { session: SessionInfo; key: string } | undefined {
  const session = currentSession(state);
  const key = connectionKey(session);
  return session && key !== undefined ? { session, key } : undefined;
}

/** `params` of a frame, parsed from its raw text (trace frames carry the bytes, not objects). */
export function frameParams(raw: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(raw) as { params?: unknown };
    return value && typeof value.params === 'object' && value.params !== null && !Array.isArray(value.params) ? (value.params as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
