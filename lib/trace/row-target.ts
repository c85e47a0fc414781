/**
 * What a History row's call is about, beside its method (issue 26): the tool of a `tools/call`,
 * the prompt of a `prompts/get`, the URI of a `resources/read` (and of a subscription or an update),
 * the task of a `tasks/*` request. A response answers for its request. Parsed only for the rows a
 * view draws (frame-message.ts keeps the one parse), never while indexing.
 */
import { frameParamsObject } from './frame-message.ts';
import type { HistoryRow } from './trace.ts';

/** Which param names the target, per method. */
const TARGET_PARAM: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'resources/subscribe': 'uri',
  'resources/unsubscribe': 'uri',
  'notifications/resources/updated': 'uri',
  'tasks/get': 'taskId',
  'tasks/result': 'taskId',
  'tasks/cancel': 'taskId',
};

/** Longer targets are cut (a row is one line); the frame detail has the whole text. */
const MAX_CHARS = 120;

function targetOfFrame(row: HistoryRow): string | undefined {
  if (row.event.kind !== 'frame' || row.method === undefined) return undefined;
  const key = TARGET_PARAM[row.method];
  if (key === undefined) return undefined;
  const value = frameParamsObject(row.event)?.[key];
  if (typeof value !== 'string' || value === '') return undefined;
  return value.length > MAX_CHARS ? `${value.slice(0, MAX_CHARS - 1)}…` : value;
}

/** The tool, prompt, URI or task a row's request names (a response: its request's), or undefined. */
export function rowTarget(row: HistoryRow): string | undefined {
  if (row.event.kind !== 'frame') return undefined;
  if (row.kind === 'request' || row.kind === 'notification') return targetOfFrame(row);
  if ((row.kind === 'response' || row.kind === 'error') && row.partner?.kind === 'request') return targetOfFrame(row.partner);
  return undefined;
}
