/**
 * What the History's filters read of a row: its kind (the chips), the text a text search scans,
 * the call's status and its tool, prompt or URI. Shared by the toolbar's controls (filter.ts) and
 * the query language (query.ts), so that `"text"` in a query and the old text filter scan the same.
 */
import { frameParamsObject } from './frame-message.ts';
import type { HistoryRow } from './trace.ts';

/** The kinds a row can have (eventKindLabel in trace.ts). */
export const ROW_KINDS = ['request', 'response', 'error', 'notification', 'invalid', 'stdout noise', 'stderr', 'http', 'transport', 'exit', 'auth', 'intervention', 'provider'] as const;
export type RowKind = (typeof ROW_KINDS)[number];

/** The text a text filter searches: the raw frame, or the text of a noise/stderr/transport/HTTP row. */
export function searchText(row: HistoryRow): string {
  const event = row.event;
  switch (event.kind) {
    case 'frame':
      return event.raw;
    case 'noise':
    case 'stderr':
      return event.text;
    case 'http':
      return `${row.summary ?? ''}\n${JSON.stringify(event.requestHeaders)}\n${JSON.stringify(event.responseHeaders ?? {})}`;
    default:
      return row.summary ?? '';
  }
}

/** The methods whose request names a tool, a prompt or a resource (the `tool:` field). */
export const TARGET_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * The tool, prompt or URI a `tools/call`, `prompts/get` or `resources/read` is about; for its
 * response, its request's. Only those frames are parsed (once each, frame-message.ts).
 */
export function targetOf(row: HistoryRow): string | undefined {
  if (row.method === undefined || !TARGET_METHODS.has(row.method)) return undefined;
  const request = row.kind === 'request' ? row : row.partner;
  if (request === undefined || request.event.kind !== 'frame') return undefined;
  const params = frameParamsObject(request.event);
  const target = params?.name ?? params?.uri;
  return typeof target === 'string' ? target : undefined;
}

export type RowStatus = 'ok' | 'error' | 'pending';

/**
 * A row's status: `error` for an error answer, a tool result with `isError`, HTTP ≥ 400, a
 * transport error, a non-zero exit, and a request whose answer is one of those; `pending` for a
 * request not answered yet; `ok` for everything else.
 */
export function statusOf(row: HistoryRow): RowStatus {
  if (row.isError || (row.kind === 'request' && row.partner?.isError)) return 'error';
  return row.pending ? 'pending' : 'ok';
}
