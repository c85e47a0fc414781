/**
 * A frame's JSON, parsed at most once (issue 9: a frame was parsed up to five times in the page,
 * once per view that wanted a field of it). The parsed message is kept with the frame object
 * itself (a WeakMap: it goes when the frame goes), so that the trace index, the stores and the
 * frame view all share one parse. Only frames someone asks about are parsed: a flood of
 * notifications nobody opens costs no JSON.parse.
 */
import type { FrameEvent } from '../wire/wire.ts';

const NOT_JSON: unique symbol = Symbol('not JSON');
const parsed = new WeakMap<object, unknown>();

/** The frame's message, or undefined when its text is not JSON. */
export function frameMessage(frame: Pick<FrameEvent, 'raw'>): unknown {
  let value = parsed.get(frame);
  if (value === undefined && !parsed.has(frame)) {
    try {
      value = JSON.parse(frame.raw) as unknown;
    } catch {
      value = NOT_JSON;
    }
    parsed.set(frame, value);
  }
  return value === NOT_JSON ? undefined : value;
}

/** Whether the frame's text was parsed already (reading it then costs nothing). */
export function frameParsed(frame: Pick<FrameEvent, 'raw'>): boolean {
  return parsed.has(frame);
}

/** Whether the frame's text is JSON at all (`null` is). */
export function frameIsJson(frame: Pick<FrameEvent, 'raw'>): boolean {
  frameMessage(frame);
  return parsed.get(frame) !== NOT_JSON;
}

/** `params` of a frame when it is an object. */
export function frameParamsObject(frame: Pick<FrameEvent, 'raw'>): Record<string, unknown> | undefined {
  const message = frameMessage(frame);
  const params = message !== null && typeof message === 'object' ? (message as { params?: unknown }).params : undefined;
  return params !== null && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : undefined;
}
