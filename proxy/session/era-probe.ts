/**
 * Which protocol generation a server speaks (issue 12): Loupe sends `server/discover` itself, over
 * the session's own transport, and turns the answer into a verdict with its reason in plain words.
 *
 * Written here rather than left to the v2 SDK Client's `versionNegotiation: 'auto'`, which makes
 * the same probe but keeps its evidence to itself: an inspector must say which probe it sent,
 * what came back and what it concluded. The v2 Client then adopts the discover result as it is
 * (`connect(transport, { prior })`, zero round trips), and a 2025 verdict hands the same transport
 * (or, where the child died of the probe, a fresh one) to the 1.x Client's `initialize`.
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Negotiation } from '../../lib/wire/wire.ts';
import type { ProtocolChoice } from '../../lib/model/server-config.ts';
import { isModernVersion } from '../../lib/model/modern-meta.ts';
import { MODERN_VERSION, envelope, type EnvelopeParts } from './modern-envelope.ts';

export const PROBE_ID = 'loupe-discover';

/** What came back to the probe, before it is judged. */
export type ProbeAnswer =
  | { kind: 'result'; result: Record<string, unknown> }
  | { kind: 'error'; code: number; message: string; data?: unknown }
  | { kind: 'timeout'; ms: number }
  | { kind: 'closed'; detail?: string }
  | { kind: 'send-failed'; detail: string };

/** `unreachable`: the probe got no answer at all (a refused connection, a 401, a dead server): not a verdict on the protocol. */
export type Verdict = Negotiation & { discover?: Record<string, unknown>; unreachable?: boolean };

const METHOD_NOT_FOUND = -32601;
const UNSUPPORTED_VERSION = -32022;

function versionsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}


/** Short words for an answer, for the page's "answer" line. */
export function describeAnswer(answer: ProbeAnswer): string {
  switch (answer.kind) {
    case 'result':
      return `result: supportedVersions ${JSON.stringify(versionsOf(answer.result.supportedVersions))}`;
    case 'error':
      return `error ${answer.code}: ${answer.message}`;
    case 'timeout':
      return `no answer within ${Math.round(answer.ms / 100) / 10} s`;
    case 'closed':
      return `the server closed the connection${answer.detail ? ` (${answer.detail})` : ''}`;
    case 'send-failed':
      return `the request could not be sent (${answer.detail})`;
  }
}

/**
 * The verdict for `mode` from the probe's answer. `transport` matters for a silence: a stdio
 * server that does not know the method may ignore it (a 2025 server), an HTTP server that does
 * not answer is simply down.
 */
export function judge(mode: ProtocolChoice, answer: ProbeAnswer, transport: 'stdio' | 'http'): Verdict {
  const probe = `server/discover asking for ${MODERN_VERSION}`;
  const said = describeAnswer(answer);
  const base = { mode, probe, answer: said };
  // A 2025 verdict under Protocol 2026-07-28 opens nothing: the reason (shown in the trace) says so.
  const then = (auto: string) => (mode === '2026-07-28' ? `; Protocol is ${MODERN_VERSION}, so Loupe opens no 2025-11-25 session.` : auto);
  if (answer.kind === 'result') {
    const supported = versionsOf(answer.result.supportedVersions);
    if (supported.includes(MODERN_VERSION)) {
      return { ...base, era: 'modern', reason: `The server answered server/discover and supports ${supported.join(', ')}: Loupe speaks ${MODERN_VERSION} (stateless).`, discover: answer.result };
    }
    // Only later 2026-style versions: a generation Loupe cannot speak yet (it would be refused).
    if (supported.some(isModernVersion)) {
      return { ...base, era: 'legacy', reason: `The server answered server/discover with only ${supported.join(', ')}, not ${MODERN_VERSION}, which Loupe speaks${then(': Loupe opens a 2025-11-25 session.')}` };
    }
    return { ...base, era: 'legacy', reason: `The server answered server/discover but lists no 2026 version (${supported.join(', ') || 'none'})${then(': Loupe opens a 2025-11-25 session.')}` };
  }
  if (answer.kind === 'error' && answer.code === UNSUPPORTED_VERSION) {
    const supported = versionsOf((answer.data as { supported?: unknown } | undefined)?.supported);
    if (supported.includes(MODERN_VERSION)) {
      return { ...base, era: 'legacy', reason: `The server refused ${MODERN_VERSION} although it lists it (${supported.join(', ')}): it wants something else of the request${then('; Loupe tries a 2025-11-25 session.')}` };
    }
    return { ...base, era: 'legacy', reason: `The server refused ${MODERN_VERSION} and supports ${supported.join(', ') || 'no version it named'}${then(': Loupe opens a 2025-11-25 session.')}` };
  }
  if (answer.kind === 'error') {
    const why = answer.code === METHOD_NOT_FOUND ? 'does not know server/discover' : `answered server/discover with error ${answer.code}`;
    return { ...base, era: 'legacy', reason: `The server ${why}, as servers that speak only 2025 do${then(': Loupe opens a 2025-11-25 session with initialize.')}` };
  }
  if (answer.kind === 'timeout' && transport === 'stdio') {
    return { ...base, era: 'legacy', reason: `The server did not answer server/discover (${said}); servers that speak only 2025 may ignore requests before initialize${then(', so Loupe opens a 2025-11-25 session.')}` };
  }
  if (answer.kind === 'closed' && transport === 'stdio') {
    return { ...base, era: 'legacy', reason: `The server exited when asked server/discover, as some 2025-only servers do before initialize${then(': Loupe started it again and opened a 2025-11-25 session.')}` };
  }
  return { ...base, era: 'legacy', unreachable: true, reason: `Loupe could not tell which protocol the server speaks: ${said}${then('. It tries a 2025-11-25 session.')}` };
}

/**
 * Sends the probe on a started transport and waits for its answer. The transport's `onmessage`
 * is borrowed for the wait (every frame is in the trace already, by the tap) and given back.
 */
export function sendProbe(transport: Transport, parts: EnvelopeParts, timeoutMs: number): Promise<ProbeAnswer> {
  const message = { jsonrpc: '2.0' as const, id: PROBE_ID, method: 'server/discover', params: { _meta: envelope(parts) } };
  const before = { onmessage: transport.onmessage, onclose: transport.onclose };
  return new Promise<ProbeAnswer>((resolve) => {
    const finish = (answer: ProbeAnswer) => {
      clearTimeout(timer);
      transport.onmessage = before.onmessage;
      transport.onclose = before.onclose;
      resolve(answer);
    };
    transport.onmessage = (incoming: JSONRPCMessage) => {
      const m = incoming as { id?: unknown; result?: Record<string, unknown>; error?: { code?: unknown; message?: unknown; data?: unknown } };
      if (m.id !== PROBE_ID) return;
      if (m.error) finish({ kind: 'error', code: Number(m.error.code), message: String(m.error.message ?? ''), data: m.error.data });
      else finish({ kind: 'result', result: m.result ?? {} });
    };
    transport.onclose = () => finish({ kind: 'closed' });
    // Declared after `finish`, which only runs later (a message, a close, the timer itself).
    const timer = setTimeout(() => finish({ kind: 'timeout', ms: timeoutMs }), timeoutMs);
    transport.send(message as JSONRPCMessage).catch((error: unknown) => finish({ kind: 'send-failed', detail: error instanceof Error ? error.message : String(error) }));
  });
}
