/**
 * The Doctor tab's report (issue 14, point 7): `Run doctor`, the summary counts, the severity
 * filter, `Copy as Markdown`, and the findings by rule, errors first (by-rule.tsx, issue 26), or
 * grouped by thing (the server, each tool, resource, prompt, the frames). Presentational: the container decides what is shown and when it can run.
 */
import { useId, type ReactNode } from 'react';
import type { Finding, FindingSubject, Severity } from '../../lib/model/doctor.ts';
import type { RuleGroup } from '../../lib/doctor/report.ts';
import { FindingsByRule } from './by-rule.tsx';
import { FindingItem } from './finding.tsx';
import { Text } from '../ui/text.tsx';
import { CopyButtons } from '../history/trace-copy-buttons.tsx';
import { Note, Panel, primaryButtonClass } from '../ui/ui.tsx';

export interface FindingGroup {
  key: string;
  kind: FindingSubject['kind'];
  /** The tool's, resource's or prompt's name (as the server sent it). */
  name?: string;
  findings: readonly Finding[];
}

export interface DoctorReportProps {
  /** Who was examined and when; undefined before the first report. */
  header?: { server: string; version?: string; protocolVersion?: string; at?: number };
  running: boolean;
  problem?: { message: string; hint?: string };
  canRun: boolean;
  cannotRunReason?: string;
  /** The summary line (`2 errors · 5 warnings · 3 info`), over every finding listed. */
  summary?: string;
  /** The groups after the severity filter. */
  groups: readonly FindingGroup[];
  /** The same findings by rule, errors first (shown when `groupBy` is `rule`). */
  ruleGroups: readonly RuleGroup[];
  groupBy: 'rule' | 'thing';
  onGroupBy(groupBy: 'rule' | 'thing'): void;
  /** Findings left out by the severity filter. */
  hidden: number;
  /** True once there is anything to show (a report, or a live frame finding). */
  any: boolean;
  filter: Readonly<Record<Severity, boolean>>;
  onFilter(patch: Partial<Record<Severity, boolean>>): void;
  /** The report as Markdown; undefined before the first report. */
  markdown?: string;
  /** Why live frame findings are not listed now (History shows an imported trace). */
  liveNote?: string;
  onRun(): void;
  onShowFrame(seq: number): void;
}

const KIND_LABEL: Record<FindingSubject['kind'], string> = { server: 'Server', tool: 'Tool', resource: 'Resource', 'resource-template': 'Resource template', prompt: 'Prompt', frame: 'Frames' };
const SEVERITY_BOXES: readonly { severity: Severity; label: string }[] = [
  { severity: 'error', label: 'Errors' },
  { severity: 'warning', label: 'Warnings' },
  { severity: 'info', label: 'Info' },
];

function Group({ group, onShowFrame }: { group: FindingGroup; onShowFrame(seq: number): void }): ReactNode {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} className="rounded-md border border-zinc-200 px-3 py-2 dark:border-zinc-700">
      <h3 id={id} className="text-sm font-semibold text-zinc-800 dark:text-zinc-100">
        {KIND_LABEL[group.kind]}
        {group.name !== undefined && <> <Text className="font-mono">{group.name}</Text></>}
        {' '}
        <span className="ml-1 text-xs font-normal text-zinc-600 dark:text-zinc-300">({group.findings.length})</span>
      </h3>
      <ul>
        {group.findings.map((finding, i) => <FindingItem key={i} finding={finding} onShowFrame={group.kind === 'frame' ? onShowFrame : undefined} />)}
      </ul>
    </div>
  );
}

function patchOf(severity: Severity, shown: boolean): Partial<Record<Severity, boolean>> {
  const patch: Partial<Record<Severity, boolean>> = {};
  patch[severity] = shown;
  return patch;
}

function Filter({ filter, onFilter }: Pick<DoctorReportProps, 'filter' | 'onFilter'>): ReactNode {
  return (
    <fieldset className="flex flex-wrap items-center gap-3 text-sm">
      <legend className="sr-only">Severities shown</legend>
      {SEVERITY_BOXES.map(({ severity, label }) => (
        <label key={severity} className="inline-flex items-center gap-1.5 text-zinc-700 dark:text-zinc-200">
          <input type="checkbox" checked={filter[severity]} onChange={(e) => onFilter(patchOf(severity, e.target.checked))} />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

function Grouping({ groupBy, onGroupBy }: Pick<DoctorReportProps, 'groupBy' | 'onGroupBy'>): ReactNode {
  const choices = [{ value: 'rule', label: 'By rule' }, { value: 'thing', label: 'By thing' }] as const;
  const name = useId();
  return (
    <div role="radiogroup" aria-label="Group findings" className="flex flex-wrap items-center gap-3 text-sm">
      <span className="text-zinc-700 dark:text-zinc-200">Group:</span>
      {choices.map(({ value, label }) => (
        <label key={value} className="inline-flex items-center gap-1.5 text-zinc-700 dark:text-zinc-200">
          <input type="radio" name={name} checked={groupBy === value} onChange={() => onGroupBy(value)} />
          {label}
        </label>
      ))}
    </div>
  );
}

function headerLine(header: NonNullable<DoctorReportProps['header']>): string {
  const parts = [header.version !== undefined ? `${header.server} ${header.version}` : header.server];
  if (header.protocolVersion !== undefined) parts.push(`protocol ${header.protocolVersion}`);
  if (header.at !== undefined) parts.push(`examined at ${new Date(header.at).toLocaleTimeString()}`);
  return parts.join(' · ');
}

function Findings({ groups, ruleGroups, groupBy, hidden, any, header, onShowFrame }: Pick<DoctorReportProps, 'groups' | 'ruleGroups' | 'groupBy' | 'hidden' | 'any' | 'header' | 'onShowFrame'>): ReactNode {
  if (!any) {
    return header
      ? <Note>No findings: the doctor found nothing to fix.</Note>
      : <Note>Run doctor to check this server&apos;s tools, resources and prompts against the MCP spec, the LLM providers&apos; rules and for hidden instructions. Frames that break the spec are listed here as they arrive.</Note>;
  }
  return (
    <div className="space-y-2">
      {groupBy === 'rule' ? <FindingsByRule groups={ruleGroups} onShowFrame={onShowFrame} /> : groups.map((group) => <Group key={group.key} group={group} onShowFrame={onShowFrame} />)}
      {groups.length === 0 && <Note>No findings at the severities shown.</Note>}
      {hidden > 0 && <Note>{hidden === 1 ? '1 finding is' : `${hidden} findings are`} hidden by the severity filter.</Note>}
    </div>
  );
}

export function DoctorReportView(props: DoctorReportProps): ReactNode {
  const { header, running, problem, canRun, cannotRunReason, summary, markdown, liveNote, onRun } = props;
  return (
    <Panel label="Doctor report" title="Doctor report">
      <div className="space-y-3">
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className={primaryButtonClass} disabled={!canRun || running} onClick={onRun}>Run doctor</button>
          {!canRun && cannotRunReason !== undefined && <span className="text-xs text-zinc-600 dark:text-zinc-300">{cannotRunReason}</span>}
          <span role="status" aria-live="polite" className="text-sm font-medium text-zinc-800 dark:text-zinc-100">
            {running ? 'Examining the server: fetching every list and checking it…' : summary}
          </span>
          <CopyButtons choices={[{ label: 'Copy as Markdown', text: markdown }]} />
        </div>
        {header && <p className="text-xs text-zinc-600 dark:text-zinc-300"><Text>{headerLine(header)}</Text></p>}
        {problem && (
          <Note tone="bad">
            The doctor gave no report: <Text>{problem.message}</Text>
            {problem.hint !== undefined && <> <Text>{problem.hint}</Text></>}
            {header && ' The report below is from the run before.'}
          </Note>
        )}
        <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
          <Filter filter={props.filter} onFilter={props.onFilter} />
          <Grouping groupBy={props.groupBy} onGroupBy={props.onGroupBy} />
        </div>
        {liveNote !== undefined && <Note>{liveNote}</Note>}
        <Findings groups={props.groups} ruleGroups={props.ruleGroups} groupBy={props.groupBy} hidden={props.hidden} any={props.any} header={header} onShowFrame={props.onShowFrame} />
      </div>
    </Panel>
  );
}
