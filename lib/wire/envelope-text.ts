/**
 * A server frame's text where it does not sit in its envelope as JSON: a `response` that carries
 * the server's frame spliced in as text (`frame`), and an `events` message whose long frame texts
 * came before it as binary messages (`rawApart`, proxy/faces/web/subscriptions.ts). Both are put
 * back into the envelope's usual shape before it is checked (wire.ts, parseServerMessage).
 */

/** Each event marked `rawApart` takes the next of the texts that came apart (oldest first), which leaves the list. */
export function putBackApart(data: unknown, apart: string[]): void {
  const events = (data as { type?: unknown; events?: unknown } | null)?.type === 'events' ? (data as { events: unknown }).events : undefined;
  if (!Array.isArray(events)) return;
  for (const event of events as Record<string, unknown>[]) {
    if (event?.rawApart !== true || apart.length === 0) continue;
    event.raw = apart.shift();
    delete event.rawApart;
  }
}

/** A `response` that carries the server's `frame`: its result or error moved into the envelope. */
export function liftFrame(data: unknown): unknown {
  if (data === null || typeof data !== 'object' || (data as { type?: unknown }).type !== 'response' || !('frame' in data)) return data;
  const { frame, ...rest } = data as { frame: unknown; ok?: unknown };
  const member = rest.ok === true ? 'result' : 'error';
  return frame !== null && typeof frame === 'object' ? { ...rest, [member]: (frame as Record<string, unknown>)[member] } : rest;
}
