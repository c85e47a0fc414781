/** The identity of a session's current connection: per-connection state resets when it changes. */
import type { SessionInfo } from '../../lib/wire/wire.ts';
import type { SessionPort } from '../_wire/session-port.ts';

export function connectionKey(session: SessionInfo | undefined): string | undefined {
  return session?.status === 'connected' ? `${session.id}@${session.since}` : undefined;
}

/** The port's session and connection key while it is connected. */
export function currentConnection(port: SessionPort): { session: SessionInfo; key: string } | undefined {
  const session = port.getSnapshot().info;
  const key = connectionKey(session);
  return session && key !== undefined ? { session, key } : undefined;
}
