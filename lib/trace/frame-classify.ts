/**
 * What kind of JSON-RPC frame a parsed message is, decided without trusting it: the trace must
 * describe malformed frames too, so this never throws and never requires a valid message.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic#messages
 */
import type { RequestId, RpcKind } from '../wire/wire.ts';

export interface FrameShape {
  rpc: RpcKind;
  method?: string;
  id?: RequestId;
}

function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

export function classifyMessage(message: unknown): FrameShape {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return { rpc: 'invalid' };
  const m = message as Record<string, unknown>;
  const id = isId(m.id) ? m.id : undefined;
  const method = typeof m.method === 'string' ? m.method : undefined;
  if (m.jsonrpc !== '2.0') return { rpc: 'invalid', method, id };
  if (method !== undefined) {
    if ('id' in m) return id === undefined ? { rpc: 'invalid', method } : { rpc: 'request', method, id };
    return { rpc: 'notification', method };
  }
  // JSON-RPC 2.0 §5: an error about a request whose id could not be read has `"id": null`.
  if (m.id === null && 'error' in m && !('result' in m)) return { rpc: 'error' };
  if (id === undefined) return { rpc: 'invalid' };
  if ('error' in m && !('result' in m)) return { rpc: 'error', id };
  if ('result' in m && !('error' in m)) return { rpc: 'response', id };
  return { rpc: 'invalid', id };
}

/** Classify raw text: non-JSON is `invalid` (the stdio reader reports it as noise before this). */
export function classifyRaw(raw: string): FrameShape {
  try {
    return classifyMessage(JSON.parse(raw));
  } catch {
    return { rpc: 'invalid' };
  }
}
