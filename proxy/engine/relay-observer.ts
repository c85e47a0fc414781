/**
 * What a watched session's own traffic says about it (issue 13): the host's `clientInfo` from its
 * `initialize` (the session's label when none was given), and the server's answer (server info,
 * protocol version, capabilities, instructions) — so that a tapped or gateway session shows in
 * the page like one Loupe made. Read on the side from the trace, after the frames were relayed:
 * the relay itself parses nothing.
 */
import type { SessionInfo } from '../../lib/wire/wire.ts';
import type { TraceRecorder } from '../pipeline/trace-recorder.ts';

type RelayPatch = Partial<Omit<SessionInfo, 'id' | 'name' | 'config' | 'status' | 'since'>>;

export interface RelayTarget {
  snapshot(): SessionInfo;
  updateRelay(patch: RelayPatch): void;
}

const key = (id: unknown): string => `${typeof id}:${String(id)}`;

function parse(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const record = (value: unknown): Record<string, unknown> | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

/**
 * Watches `trace` for the initialize exchange; returns the unsubscribe function. `onLabel` is told
 * the host's name when no label was given (the engine names the session by it).
 */
export function observeRelay(session: RelayTarget, trace: TraceRecorder, onLabel?: (label: string) => void): () => void {
  const initializing = new Set<string>();
  return trace.subscribe((event) => {
    if (event.kind !== 'frame') return;
    if (event.dir === 'out' && event.method === 'initialize' && event.id !== undefined) {
      initializing.add(key(event.id));
      const params = record(parse(event.raw)?.params);
      const info = record(params?.clientInfo);
      if (typeof info?.name !== 'string') return;
      const relay = session.snapshot().relay;
      if (!relay) return;
      const client = { name: info.name, ...(typeof info.version === 'string' ? { version: info.version } : {}) };
      // A label given on the command line stays; otherwise the host names the session.
      const named = relay.label === undefined;
      const label = relay.label ?? `${client.name}${client.version ? ` ${client.version}` : ''}`;
      session.updateRelay({ relay: { ...relay, client, label } });
      if (named) onLabel?.(label);
      return;
    }
    if (event.dir !== 'in' || event.id === undefined || !initializing.delete(key(event.id)) || event.rpc !== 'response') return;
    const result = record(parse(event.raw)?.result);
    if (!result) return;
    const serverInfo = record(result.serverInfo);
    session.updateRelay({
      ...(typeof result.protocolVersion === 'string' ? { protocolVersion: result.protocolVersion } : {}),
      ...(record(result.capabilities) ? { capabilities: record(result.capabilities) } : {}),
      ...(typeof result.instructions === 'string' ? { instructions: result.instructions } : {}),
      ...(serverInfo && typeof serverInfo.name === 'string' ? { serverInfo: serverInfo as SessionInfo['serverInfo'] } : {}),
      era: 'legacy',
    });
  });
}
