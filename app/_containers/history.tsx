'use client';
/**
 * The History tab: the trace of the selected session (or an imported one, read-only) as a windowed
 * table with filters, the selected frame in full, the raw composer, import/export, ping, and the
 * server's stderr. State lives in the trace stores (trace-store.ts, trace-actions.ts). The table
 * draws the view's `display` rows: multi-round calls folded into one group row each.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { FrameDetail } from '@/components/history/frame-detail.tsx';
import type { HistoryRounds } from '@/components/history/rounds.tsx';
import { HistoryTable } from '@/components/history/table.tsx';
import { HistoryToolbar } from '@/components/history/toolbar.tsx';
import { RawComposer } from '@/components/history/raw-composer.tsx';
import { StderrPanel } from '@/components/shell/stderr-panel.tsx';
import { TraceSourceBar, type ImportSummary } from '@/components/history/trace-source-bar.tsx';
import { Note, Panel } from '@/components/ui/ui.tsx';
import { formatDuration, type HistoryRow } from '../../lib/trace/trace.ts';
import type { TraceIndex } from '../../lib/trace/row-index.ts';
import { indexOfSeq } from '../../lib/trace/filter.ts';
import { interventionLinks, releaseOf } from '../_stores/intervention-links.ts';
import type { ActionsState } from '../_stores/trace-actions.ts';
import { ExportPanel } from './trace-export.tsx';
import { SaveRowAsTest } from './save-as-test.tsx';
import { ServerSpans } from './server-spans.tsx';
import { useQueryValues, useSavedQueries } from './history-query.ts';
import type { TraceView } from '../_stores/trace-store.ts';
import { useSession, useTrace, useTraceActions } from '../_hooks/use-loupe.ts';
import { SplitPane } from '@/components/ui/splitter.tsx';
import { usePaneSize } from '../_hooks/use-layout.ts';

/** How far back to look for the frame the composer just sent. */
const FIND_SENT_WITHIN = 5_000;

function findSent(index: TraceIndex, raw: string | undefined, origin: string | undefined): HistoryRow | undefined {
  if (raw === undefined) return undefined;
  const rows = index.rows;
  for (let i = rows.length - 1; i >= Math.max(0, rows.length - FIND_SENT_WITHIN); i -= 1) {
    const event = rows[i].event;
    if (event.kind === 'frame' && event.dir === 'out' && event.origin === origin && event.raw === raw) return rows[i];
  }
  return undefined;
}

/** The selected row is not among the filtered rows (folded: nor is its request, which stands for it). */
function hiddenBy(rows: readonly HistoryRow[], selected: HistoryRow, folded: boolean): boolean {
  if (indexOfSeq(rows, selected.seq) >= 0) return false;
  return !(folded && selected.partnerSeq !== undefined && indexOfSeq(rows, selected.partnerSeq) >= 0);
}

function importSummaries(view: TraceView): ImportSummary[] {
  return view.imports.map((entry) => ({
    key: entry.key,
    name: entry.name,
    events: entry.index.total,
    exportedAt: entry.header.exportedAt,
    server: entry.header.session.serverInfo?.name,
    problemCount: entry.problemCount,
    problems: entry.problems,
  }));
}

function pingText(ping: ActionsState['ping']): { text?: string; ok?: boolean } {
  const outcome = ping.outcome;
  if (!outcome) return {};
  return outcome.ok ? { text: `pong in ${formatDuration(outcome.durationMs)}`, ok: true } : { text: `ping failed: ${outcome.error.message}`, ok: false };
}

function Composer({ view, actions, canSend, reason }: { view: TraceView; actions: ActionsState; canSend: boolean; reason?: string }): ReactNode {
  const { traceActions, trace } = useSession();
  const c = actions.composer;
  const sentRow = findSent(view.index, c.sent?.raw, c.sent?.origin);
  const outcome = c.outcome;
  const method = typeof c.sent?.message.method === 'string' ? c.sent.message.method : undefined;
  return (
    <Panel title="Composer" label="Raw composer">
      <RawComposer
        draft={c.draft}
        origin={c.origin}
        fromSeq={c.fromSeq}
        problem={c.problem}
        sending={c.sending}
        sent={c.sent && { origin: c.sent.origin, fromSeq: c.sent.fromSeq, expectsAnswer: c.sent.expectsAnswer, method }}
        answer={outcome && { ok: outcome.ok, value: outcome.ok ? outcome.result : outcome.error, durationMs: outcome.durationMs }}
        sentSeq={sentRow?.seq}
        answerSeq={sentRow?.partnerSeq}
        canSend={canSend}
        cannotSendReason={reason}
        onDraft={(text) => traceActions.setDraft(text)}
        onSend={() => void traceActions.sendDraft()}
        onTemplate={(kind) => traceActions.useTemplate(kind)}
        onShowFrame={(seq) => trace.select(seq, true)}
        headers={view.session?.config.kind === 'http' && !view.readOnly ? { text: c.headers, onChange: (text) => traceActions.setHeaders(text) } : undefined}
      />
    </Panel>
  );
}

function sendState(view: TraceView): { canSend: boolean; reason?: string } {
  if (view.readOnly) return { canSend: false, reason: 'An imported trace is read-only' };
  if (view.session?.status !== 'connected') return { canSend: false, reason: 'Connect to send' };
  return { canSend: true };
}

export function HistoryContainer(): ReactNode {
  const { trace, traceActions } = useSession();
  const view = useTrace();
  const actions = useTraceActions();
  const [exportOpen, setExportOpen] = useState(false);
  const pane = usePaneSize('history.detail');
  const { index, rows, filter } = view;
  const methods = useMemo(() => [...index.methods.entries()].sort((a, b) => a[0].localeCompare(b[0])), [index, view.version]);
  const stderr = useMemo(() => index.stderr(), [index, view.version]);
  const selected = view.selectedSeq === undefined ? undefined : index.find(view.selectedSeq);
  const hiddenByFilter = selected !== undefined && hiddenBy(rows, selected, filter.fold);
  const links = useMemo(() => interventionLinks(index.rows, selected), [index, selected, view.version]);
  const release = useMemo(() => releaseOf(index.rows, selected), [index, selected, view.version]);
  const { canSend, reason } = sendState(view);
  const queryServer = view.session?.name;
  const values = useQueryValues(index.rows, () => index.methods.keys(), queryServer ? [queryServer] : [], view.version);
  const savedQueries = useSavedQueries();
  const rounds = useMemo<HistoryRounds | undefined>(
    () => (view.rounds.size === 0 ? undefined : { groupOf: (row) => view.rounds.groupOf(row), open: view.openRounds, onToggle: (headSeq, open) => trace.setRoundsOpen(headSeq, open) }),
    [trace, view.rounds, view.openRounds, view.rounds.size],
  );
  const liveName = view.readOnly ? 'Live session' : `Live: ${view.session?.serverInfo?.name ?? view.session?.config.name ?? 'session'}`;
  return (
    <div className="space-y-3">
      <TraceSourceBar
        source={view.source}
        liveLabel={liveName}
        imports={importSummaries(view)}
        importError={view.importError}
        dropped={view.dropped}
        exportOpen={exportOpen}
        ping={{ canPing: canSend, sending: actions.ping.sending, ...pingText(actions.ping) }}
        onSource={(key) => trace.setSource(key)}
        onImport={(file) => void file.text().then((text) => trace.importText(file.name, text))}
        onCloseImport={(key) => trace.closeImport(key)}
        onToggleExport={() => setExportOpen((open) => !open)}
        onPing={() => void traceActions.ping()}
      />
      {exportOpen && <ExportPanel view={view} onClose={() => setExportOpen(false)} />}
      <section aria-label="History">
        <SplitPane label="Resize frame detail" sized="second" defaultSize={384} min={256} max={960} otherMin={520} {...pane}>
        <div className="min-w-0 space-y-2">
          <HistoryToolbar filter={filter} methods={methods} shown={rows.length} total={index.rows.length} violations={index.violationRows} onFilter={(patch) => trace.setFilter(patch)} onReset={() => trace.resetFilter()} values={values} saved={savedQueries} />
          {index.rows.length === 0 ? (
            <Note>No traffic yet.</Note>
          ) : (
            <>
              <HistoryTable rows={view.display} rounds={rounds} version={view.version} folded={filter.fold} selectedSeq={view.selectedSeq} scrollToken={view.scrollToken} onSelect={(seq) => trace.select(seq)} onMove={(delta) => trace.move(delta)} />
              {rows.length === 0 && <Note>No rows match the filter.</Note>}
            </>
          )}
        </div>
        <div className="min-w-0 space-y-3">
          <Panel title="Frame" className="min-w-0 self-start">
            <FrameDetail
              row={selected}
              canSend={canSend}
              cannotSendReason={reason}
              onSelect={(seq) => trace.select(seq, true)}
              onReplay={(row) => void traceActions.replay(row)}
              onEdit={(row) => traceActions.edit(row)}
              links={links}
              hiddenByFilter={hiddenByFilter}
              release={release}
              actions={selected && <SaveRowAsTest row={selected} index={index} />}
            />
          </Panel>
          <ServerSpans rows={index.rows} selected={selected} version={view.version} />
          <Composer view={view} actions={actions} canSend={canSend} reason={reason} />
        </div>
        </SplitPane>
      </section>
      <StderrPanel text={stderr.text} trimmed={stderr.trimmed} />
    </div>
  );
}
