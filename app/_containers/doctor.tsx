'use client';
/**
 * The Doctor tab of one server (issue 14): the report the proxy made on `Run doctor`, with the
 * frames the trace index marks as breaking the protocol's schema added live (they need no run),
 * and the export of the server's tool definitions. A frame's `Show in History` selects it there,
 * as the Notifications tab does.
 */
import { useMemo, useRef, type ReactNode } from 'react';
import { DoctorReportView } from '@/components/doctor/report.tsx';
import { groupByRule, reportMarkdown } from '../../lib/doctor/report.ts';
import { countFindings, type Finding } from '../../lib/model/doctor.ts';
import { DoctorExportContainer } from './doctor-export.tsx';
import { filterFindings, groupFindings, liveFrameFindings, mergeFindings, summaryText } from '../_stores/doctor-findings.ts';
import { useServices, useSession, useSessionInfo, useTrace } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';

const IMPORTED_NOTE = 'History shows an imported trace: this session’s frame findings are listed again once History shows the live session.';

const findingKey = (f: Finding) => `${f.about.kind === 'frame' ? f.about.seq : ''}\n${f.rule}\n${f.message}`;

/**
 * The live frame findings, the same array while they are the same: the trace changes on every
 * batch, and the Markdown and groups below need not be made again for each.
 */
function useLiveFindings(): Finding[] {
  const view = useTrace();
  const last = useRef<{ key: string; findings: Finding[] }>({ key: '', findings: [] });
  return useMemo(() => {
    const found = view.readOnly ? [] : liveFrameFindings(view.index.rows, view.index.violationRows);
    const key = found.map(findingKey).join('\n\n');
    if (key !== last.current.key) last.current = { key, findings: found };
    return last.current.findings;
  }, [view.index, view.version, view.readOnly]);
}

export function DoctorContainer(): ReactNode {
  const { doctor, nav } = useServices();
  const model = useSession();
  const info = useSessionInfo();
  const { runs, filter, groupBy } = useStore(doctor);
  const readOnly = useTrace().readOnly;
  const run = runs[model.id];
  const report = run?.report;
  const live = useLiveFindings();
  const all = useMemo(() => mergeFindings(report?.findings ?? [], live), [report, live]);
  const counts = useMemo(() => countFindings(all), [all]);
  const shown = useMemo(() => filterFindings(all, filter), [all, filter]);
  const groups = useMemo(() => groupFindings(shown), [shown]);
  const ruleGroups = useMemo(() => groupByRule(shown), [shown]);
  const markdown = useMemo(() => (report ? reportMarkdown({ ...report, findings: all, counts }) : undefined), [report, all, counts]);
  const connected = info?.status === 'connected';
  const showFrame = (seq: number) => {
    if (readOnly) model.trace.setSource('live');
    model.trace.reveal(seq);
    nav.show('history');
  };
  return (
    <div className="space-y-3">
      <DoctorReportView
        header={report && { server: report.server.name, version: report.server.version, protocolVersion: report.protocolVersion, at: run?.at }}
        running={run?.pending !== undefined}
        problem={run?.problem}
        canRun={connected}
        cannotRunReason={connected ? undefined : 'Connect the server to run the doctor.'}
        summary={report || all.length > 0 ? summaryText(counts) : undefined}
        groups={groups}
        ruleGroups={ruleGroups}
        groupBy={groupBy}
        onGroupBy={(by) => doctor.setGroupBy(by)}
        hidden={all.length - shown.length}
        any={all.length > 0}
        filter={filter}
        onFilter={(patch) => doctor.setFilter(patch)}
        markdown={markdown}
        liveNote={readOnly ? IMPORTED_NOTE : undefined}
        onRun={() => doctor.run(model.id)}
        onShowFrame={showFrame}
      />
      <DoctorExportContainer />
    </div>
  );
}
