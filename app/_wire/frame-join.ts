/**
 * The page's half of "a frame crosses to the page once" (issue 23). The proxy answers a request
 * with `frameSeq`, the number of the trace frame that holds the server's response, right after the
 * `events` message that carried that frame; this keeps the last response frames it saw, by session
 * and seq, and puts the result back into the envelope. The frame's text is parsed once, by
 * lib/trace/frame-message.ts, and the History's view of the frame shares that parse.
 */
import { frameMessage } from '../../lib/trace/frame-message.ts';
import type { ResponseMessage, TraceEvent } from '../../lib/wire/wire.ts';

/**
 * Response frames remembered. The envelope follows its frame's `events` message at once (the
 * proxy flushes then answers, in one turn), so only the frames of that one message must be here;
 * a flood of answers in one batch is why this is more than one.
 */
const KEPT = 1024;

export class FrameJoin {
  private readonly frames = new Map<string, TraceEvent>();

  /** Notes the incoming response frames among these events (anything else costs one comparison). */
  note(events: readonly TraceEvent[]): void {
    for (const event of events) {
      if (event.kind !== 'frame' || event.dir !== 'in' || event.rpc !== 'response') continue;
      this.frames.set(`${event.session}:${event.seq}`, event);
      if (this.frames.size > KEPT) this.frames.delete(this.frames.keys().next().value!);
    }
  }

  /** The envelope with its result in place; an envelope whose frame is not here becomes a plain failure. */
  join(message: ResponseMessage): ResponseMessage {
    if (!message.ok || message.frameSeq === undefined || message.result !== undefined) return message;
    const key = `${message.session}:${message.frameSeq}`;
    const frame = this.frames.get(key);
    this.frames.delete(key);
    const parsed = frame?.kind === 'frame' ? (frameMessage(frame) as { result?: unknown } | undefined) : undefined;
    if (parsed === undefined || typeof parsed !== 'object' || parsed === null || !('result' in parsed)) {
      const { type, id, session, durationMs, rpcId } = message;
      return { type, id, session, durationMs, rpcId, ok: false, error: { code: 'BAD_MESSAGE', message: `The server's answer (frame ${message.frameSeq} of this session) did not reach the page; it is in History.` } };
    }
    return { ...message, result: parsed.result };
  }
}
