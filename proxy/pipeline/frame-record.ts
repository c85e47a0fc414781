/**
 * A frame's one record (issue 23): every source (Loupe's stdio and HTTP sessions, the tap, the
 * gateway's upstreams) hands the exact text it read or is about to write to `recordFrame`, which
 * records it once — its size in UTF-8 bytes, its time, its direction, the text as it was — and
 * parses it once. What was parsed travels on with the record (`FrameExtra`, the SDK Transport's
 * `extra` argument), so that nothing after this point parses the text again or finds the record by
 * matching text.
 *
 * The record is made before anything acts on the frame: a frame that is not JSON, or JSON that is
 * not JSON-RPC, is in the trace with its bytes whatever happens to it next.
 */
import type { MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { classifyMessage } from '../../lib/trace/frame-classify.ts';
import type { FrameEvent } from '../../lib/wire/wire.ts';
import type { TraceRecorder } from './trace-recorder.ts';

export type FrameDir = 'in' | 'out';

/** The outcome of reading one frame's text: `message` is set only when the text is JSON. */
export interface RecordedFrame {
  /** The trace event, numbered; undefined when the text was recorded as stdout noise. */
  event?: FrameEvent;
  /** The text parsed once; `json` false when it is not JSON at all. */
  json: boolean;
  message?: unknown;
  /** A JSON-RPC message: the event's `rpc` is not `invalid`. */
  valid: boolean;
  /** The recorded text is the text itself (no secret of the session was masked in it). */
  exact: boolean;
}

export interface RecordOptions {
  /** When it was read, where that is not now (the tap's frames, read in its own process first). */
  at?: number;
  /** Text from a server's stdout that is not JSON is stdout noise, not a frame (stdio sessions, the tap). */
  notJsonIsNoise?: boolean;
  /** The medium parsed the text already (an HTTP body, for its batches): its value, or `not-json`. No second parse. */
  parsed?: { value: unknown } | 'not-json';
}

const INVALID = { rpc: 'invalid' } as const;

/** UTF-8 bytes of a frame's text: the one measure of size every source uses. */
export function frameBytes(raw: string): number {
  return Buffer.byteLength(raw, 'utf8');
}

/** Records `raw` once and parses it once; never throws. */
export function recordFrame(trace: TraceRecorder, dir: FrameDir, raw: string, options: RecordOptions = {}): RecordedFrame {
  let value: unknown;
  if (options.parsed !== undefined && options.parsed !== 'not-json') value = options.parsed.value;
  else {
    try {
      if (options.parsed === 'not-json') throw new SyntaxError('not JSON');
      value = JSON.parse(raw);
    } catch {
      if (options.notJsonIsNoise) {
        trace.record({ kind: 'noise', text: raw }, options.at);
        return { json: false, valid: false, exact: false };
      }
      const event = trace.recordFrame(dir, raw, frameBytes(raw), INVALID, options.at);
      return { event, json: false, valid: false, exact: event.raw === raw };
    }
  }
  const shape = classifyMessage(value);
  const event = trace.recordFrame(dir, raw, frameBytes(raw), shape, options.at, { value });
  return { event, json: true, message: value, valid: shape.rpc !== 'invalid', exact: event.raw === raw };
}

/**
 * What a recording transport passes with each message it delivers: the record of the frame it
 * came in, so that the session's router can answer the page with the record's number (the page
 * has the frame already: it crosses to the page once) instead of the text a second time.
 */
export interface FrameExtra extends MessageExtraInfo {
  frame?: FrameEvent;
  /** True when the record's text is exactly what the server sent (no secret was masked in it). */
  frameExact?: boolean;
}

/** The `extra` a recording transport delivers a message with. */
export function extraOf(recorded: RecordedFrame): FrameExtra | undefined {
  return recorded.event ? { frame: recorded.event, frameExact: recorded.exact } : undefined;
}

/** The record that came with a message, if its transport keeps one. */
export function frameOf(extra: MessageExtraInfo | undefined): { event: FrameEvent; exact: boolean } | undefined {
  const frame = (extra as FrameExtra | undefined)?.frame;
  return frame ? { event: frame, exact: (extra as FrameExtra).frameExact === true } : undefined;
}
