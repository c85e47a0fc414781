/**
 * The selected history row in full: pretty JSON with collapsible nodes (or the raw text as it
 * crossed the wire), copy buttons, its partner, the protocol violations found on it, and, for a
 * live session, replay / edit-and-send. HTTP exchanges show their headers and timing; an
 * intervention (issue 13) its original and resulting text, and the frames it is linked with; a
 * provider exchange (issue 15) its URL, status, headers and both bodies.
 */
import { memo, useMemo, useState, type ReactNode } from 'react';
import { frameIsJson, frameMessage } from '../../lib/trace/frame-message.ts';
import { formatJson } from '../../lib/json/safe-json.ts';
import { specLabel, VIOLATION_LABELS } from '../../lib/trace/violations.ts';
import { formatDuration, formatSize, type HistoryRow } from '../../lib/trace/trace.ts';
import type { HttpEvent } from '../../lib/wire/wire.ts';
import { FrameJsonTree } from './frame-json-tree.tsx';
import { InterventionDetail, type Release } from './intervention-detail.tsx';
import { ProviderDetail } from './provider-detail.tsx';
import { Pre, Text } from '../ui/text.tsx';
import { CopyButtons, type CopyChoice } from './trace-copy-buttons.tsx';
import { FactList, type Fact } from '../ui/fact-list.tsx';
import { Badge, buttonClass, Note } from '../ui/ui.tsx';

export interface FrameDetailProps {
  row?: HistoryRow;
  /** Replay and edit are offered (a live, connected session; not an imported trace). */
  canSend: boolean;
  /** Why not, when `canSend` is false. */
  cannotSendReason?: string;
  onSelect(seq: number): void;
  onReplay(row: HistoryRow): void;
  onEdit(row: HistoryRow): void;
  /** Rows this one is linked with beyond its partner: an intervention and its frames (issue 13). */
  links?: readonly FrameLink[];
  /** The selected row is not among the rows the filter shows: say so instead of showing it as if it were. */
  hiddenByFilter?: boolean;
  /** For a hold: the intervention that released it (what went on is what it says). */
  release?: Release;
  /** More to do with this frame, beside Replay (issue 27: `Save as test`). */
  actions?: ReactNode;
}

/** A button to another row: `label` says what it is ("Go to the frame that went on #12"). */
export interface FrameLink {
  seq: number;
  label: string;
}

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

type Parsed = { ok: true; value: unknown } | { ok: false };

/** The frame's JSON, parsed once per frame and shared with the trace index and the stores (lib/trace/frame-message.ts). */
function useParsed(row: HistoryRow | undefined): Parsed {
  const event = row?.event;
  return useMemo(() => (event?.kind === 'frame' && frameIsJson(event) ? { ok: true, value: frameMessage(event) } : { ok: false }), [event]);
}

/** The tree only redraws when its value changes, not with every batch of new frames. */
const Tree = memo(function Tree({ value }: { value: unknown }): ReactNode {
  return <FrameJsonTree value={value} />;
});

function copyChoices(row: HistoryRow, value: unknown): CopyChoice[] {
  const raw = row.event.kind === 'frame' ? row.event.raw : undefined;
  const message = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  const part = message && ('params' in message ? 'params' : 'result' in message ? 'result' : 'error' in message ? 'error' : 'params');
  // formatJson, not JSON.stringify: a frame may be nested deeper than the serialiser's stack (issue 8).
  const partText = message && part && part in message ? formatJson(message[part]).text : undefined;
  return [
    { label: 'Copy frame', text: raw },
    { label: 'Copy as JSON-RPC', text: message ? formatJson(message).text : undefined },
    { label: `Copy ${part ?? 'params'}`, text: partText },
  ];
}

function HttpDetail({ event }: { event: HttpEvent }): ReactNode {
  const headers = (title: string, record: Record<string, string> | undefined) =>
    record && Object.keys(record).length > 0 ? (
      <div>
        <h4 className="mt-2 text-xs font-semibold text-zinc-600 dark:text-zinc-300">{title}</h4>
        <dl className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-3 font-mono text-xs">
          {Object.entries(record).map(([name, value]) => (
            <div key={name} className="contents">
              <dt className="text-zinc-500 dark:text-zinc-400"><Text>{name}</Text></dt>
              <dd className="break-all"><Text>{value}</Text></dd>
            </div>
          ))}
        </dl>
      </div>
    ) : null;
  const facts: Fact[] = [
    ['Request', `${event.method} ${event.url}`],
    ['Status', event.status === undefined ? undefined : String(event.status)],
    ['Content type', event.contentType],
    ['Time', formatDuration(event.durationMs)],
    ['Body', event.bodySize === undefined ? (event.contentType?.includes('event-stream') ? 'SSE stream (frames follow as their own rows)' : undefined) : formatSize(event.bodySize)],
    ['MCP session id', event.responseHeaders?.['mcp-session-id'] ?? event.requestHeaders['mcp-session-id']],
    ['Error', event.error],
  ];
  return (
    <div className="text-sm">
      <FactList facts={facts} />
      {headers('Request headers (secrets masked)', event.requestHeaders)}
      {headers('Response headers', event.responseHeaders)}
    </div>
  );
}

function Body({ row, view, json, release }: { row: HistoryRow; view: 'tree' | 'raw'; json: Parsed; release?: Release }): ReactNode {
  const event = row.event;
  if (event.kind === 'http') return <HttpDetail event={event} />;
  if (event.kind === 'intervention') return <InterventionDetail event={event} release={release} />;
  if (event.kind === 'provider') return <ProviderDetail event={event} />;
  if (event.kind === 'noise' || event.kind === 'stderr') return <Pre className="rounded-md bg-zinc-50 p-2 dark:bg-zinc-950">{event.text}</Pre>;
  if (event.kind !== 'frame') return <Pre className="rounded-md bg-zinc-50 p-2 dark:bg-zinc-950">{row.summary ?? ''}</Pre>;
  if (view === 'raw' || !json.ok) {
    return (
      <>
        {!json.ok && <Note tone="warn">Not valid JSON; shown as received.</Note>}
        <Pre className="rounded-md bg-zinc-50 p-2 dark:bg-zinc-950">{event.raw}</Pre>
      </>
    );
  }
  return (
    <div className="rounded-md bg-zinc-50 p-2 dark:bg-zinc-950">
      <Tree key={row.seq} value={json.value} />
    </div>
  );
}

function Violations({ row }: { row: HistoryRow }): ReactNode {
  if (!row.violations) return null;
  return (
    // Paragraphs, not list items: the History region's rows are what its lists are made of.
    <div aria-label="Protocol violations" role="group" className="mb-2 space-y-1 rounded-md border border-amber-300 bg-amber-50 p-2 text-xs text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      {row.violations.map((v, i) => (
        <p key={i}>
          <strong>⚠ {VIOLATION_LABELS[v.code]}</strong>: <Text>{v.message}</Text>
          {v.spec && (
            <>
              {' '}
              <a className="underline" href={v.spec} target="_blank" rel="noopener noreferrer">{specLabel(v.spec)}</a>
            </>
          )}
        </p>
      ))}
    </div>
  );
}

function Heading({ row, links, onSelect }: { row: HistoryRow; links: readonly FrameLink[]; onSelect(seq: number): void }): ReactNode {
  const view = row.event.kind === 'frame' ? row.event.view : undefined;
  const byView = row.event.kind === 'frame' ? row.event.byView : undefined;
  // A view's frame (issue 24) is between Loupe, the host, and the view: `in` is view→host.
  const dir = view !== undefined ? (row.dir === 'out' ? `host → view ${view}` : `view ${view} → host`) : row.dir === 'out' ? 'Loupe → server' : row.dir === 'in' ? 'server → Loupe' : undefined;
  const partner = row.partnerSeq;
  return (
    <div className="mb-2 flex flex-wrap items-center gap-2 text-xs">
      <Badge>#{row.seq}</Badge>
      <Badge tone={row.isError ? 'bad' : 'info'}>{row.kind}</Badge>
      {dir && <span className="text-zinc-500 dark:text-zinc-400">{dir}</span>}
      {byView !== undefined && <Badge tone="info" title="Loupe sent this to the server on behalf of an MCP Apps view">for view {byView}</Badge>}
      {row.method !== undefined && <Text className="font-mono font-semibold">{row.method}</Text>}
      {row.id !== undefined && <span className="font-mono text-zinc-500 dark:text-zinc-400">id <Text>{JSON.stringify(row.id)}</Text></span>}
      {row.latencyMs !== undefined && <span>{formatDuration(row.latencyMs)}</span>}
      {row.pending && <Badge tone="info">pending</Badge>}
      {row.cancelled && <Badge tone="warn">cancelled</Badge>}
      {row.origin && <Badge tone="warn" title="Sent by hand from Loupe">{row.origin === 'composer' ? 'composed' : row.origin}</Badge>}
      {partner !== undefined && (
        <button type="button" className={small} onClick={() => onSelect(partner)}>
          {row.kind === 'request' ? `Go to response #${partner}` : `Go to request #${partner}`}
        </button>
      )}
      {links.map((link) => (
        <button key={`${link.seq}:${link.label}`} type="button" className={small} onClick={() => onSelect(link.seq)}>
          {link.label}
        </button>
      ))}
    </div>
  );
}

const NO_LINKS: readonly FrameLink[] = [];

export function FrameDetail({ row, canSend, cannotSendReason, onSelect, onReplay, onEdit, links = NO_LINKS, hiddenByFilter = false, release, actions }: FrameDetailProps): ReactNode {
  const [view, setView] = useState<'tree' | 'raw'>('tree');
  const json = useParsed(row);
  if (!row) return <Note>Select a row to see the frame (arrow keys move through the list).</Note>;
  const isFrame = row.event.kind === 'frame';
  const viewFrame = row.event.kind === 'frame' && row.event.view !== undefined;
  return (
    <div>
      {/* Reached by a link, or hidden since by a new filter: shown, but not as if it were a row of the list. */}
      {hiddenByFilter && <Note tone="warn">Frame #{row.seq} is hidden by the filter: it is not a row of the list now.</Note>}
      <Heading row={row} links={links} onSelect={onSelect} />
      <Violations row={row} />
      {isFrame && (
        <div className="mb-2 flex flex-wrap items-center gap-1.5">
          <CopyButtons choices={copyChoices(row, json.ok ? json.value : undefined)} />
          <span className="mx-1 h-4 w-px bg-zinc-300 dark:bg-zinc-600" aria-hidden="true" />
          {/* A view's frame (MCP Apps) is the view's conversation, not the server's: nothing to send it again to. */}
          {row.kind === 'request' && row.dir === 'out' && !viewFrame && (
            <button type="button" className={small} disabled={!canSend} title={canSend ? 'Send this request again (with a new id)' : cannotSendReason} onClick={() => onReplay(row)}>Replay</button>
          )}
          {!viewFrame && <button type="button" className={small} disabled={!canSend || !json.ok} title={canSend ? 'Open in the composer to edit and send' : cannotSendReason} onClick={() => onEdit(row)}>Edit and send</button>}
          {actions}
          <span className="ml-auto inline-flex overflow-hidden rounded-md border border-zinc-300 text-xs dark:border-zinc-600" role="group" aria-label="Frame view">
            {(['tree', 'raw'] as const).map((v) => (
              <button key={v} type="button" aria-pressed={view === v} onClick={() => setView(v)} className={`px-2 py-0.5 ${view === v ? 'bg-zinc-200 dark:bg-zinc-700' : ''}`}>
                {v === 'tree' ? 'Tree' : 'Raw'}
              </button>
            ))}
          </span>
        </div>
      )}
      <div className="max-h-[60vh] overflow-auto">
        <Body row={row} view={view} json={json} release={release} />
      </div>
    </div>
  );
}
