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
}

export interface RecordOptions {
  /** When it was read, where that is not now (the tap's frames, read in its own process first). */
  at?: number;
  /** Text from a server's stdout that is not JSON is stdout noise, not a frame (stdio sessions, the tap). */
  notJsonIsNoise?: boolean;
  /** The medium parsed the text already (an HTTP body, for its batches): its value, or `not-json`. No second parse. */
  parsed?: { value: unknown } | 'not-json';
  /** A frame between Loupe and an MCP Apps view (issue 24), not the server: the view's id. */
  view?: string;
}

const INVALID = { rpc: 'invalid' } as const;

/** UTF-8 bytes of a frame's text: the one measure of size every source uses. */
export function frameBytes(raw: string): number {
  return Buffer.byteLength(raw, 'utf8');
}

function parseOnce(raw: string, given: RecordOptions['parsed']): { value: unknown } | undefined {
  if (given === 'not-json') return undefined;
  if (given) return given;
  try {
    return { value: JSON.parse(raw) };
  } catch {
    return undefined;
  }
}

/** Records `raw` once and parses it once; never throws. */
export function recordFrame(trace: TraceRecorder, dir: FrameDir, raw: string, options: RecordOptions = {}): RecordedFrame {
  const parsed = parseOnce(raw, options.parsed);
  if (!parsed) {
    if (!options.notJsonIsNoise) return { event: trace.recordFrame(dir, raw, frameBytes(raw), INVALID, options.at, undefined, options.view), json: false, valid: false };
    trace.record({ kind: 'noise', text: raw }, options.at);
    return { json: false, valid: false };
  }
  const shape = classifyMessage(parsed.value);
  const event = trace.recordFrame(dir, raw, frameBytes(raw), shape, options.at, parsed, options.view);
  return { event, json: true, message: parsed.value, valid: shape.rpc !== 'invalid' };
}

/**
 * What a transport passes with each message it delivers (the SDK Transport's `extra`): the exact
 * text the message was parsed from — written and relayed as that text, never serialised again
 * (a frame of any depth passes, issue 8) — and the record of its frame, so that the session's
 * router can answer the page with the record's number (the page has the frame already: it crosses
 * to the page once) instead of the text a second time.
 */
export interface FrameExtra extends MessageExtraInfo {
  text?: string;
  frame?: FrameEvent;
}

/** The `extra` a recording transport delivers a message with. */
export function extraOf(recorded: RecordedFrame, text: string): FrameExtra {
  return { text, frame: recorded.event };
}

/** The exact text that came with a message, if its transport kept it. */
export function textOfExtra(extra: MessageExtraInfo | undefined): string | undefined {
  return (extra as FrameExtra | undefined)?.text;
}

/** The record of the message's frame, where the record's text is exactly what came (no secret was masked in it). */
export function exactFrameOf(extra: MessageExtraInfo | undefined): FrameEvent | undefined {
  const { frame, text } = (extra ?? {}) as FrameExtra;
  return frame !== undefined && frame.raw === text ? frame : undefined;
}
