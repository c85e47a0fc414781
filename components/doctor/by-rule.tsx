/**
 * The doctor's findings by rule (issue 26): what to act on first. One section per severity
 * (errors, warnings, then info, folded), one line per rule naming every thing it hit — nineteen
 * tools with the same provider warning are one line listing the nineteen — with the fix and the
 * source once, and each finding's own words a click away.
 */
import { useId, type ReactNode } from 'react';
import type { Severity } from '../../lib/model/doctor.ts';
import type { RuleGroup } from '../../lib/doctor/report.ts';
import { providerLabel, SourceLine } from './finding.tsx';
import { Text } from '../ui/text.tsx';
import { Badge, buttonClass, type Tone } from '../ui/ui.tsx';

const SECTION: Record<Severity, { title: string; word: string; tone: Tone }> = {
  error: { title: 'Errors', word: 'Error', tone: 'bad' },
  warning: { title: 'Warnings', word: 'Warning', tone: 'warn' },
  info: { title: 'Info', word: 'Info', tone: 'info' },
};

/** How many things a rule hit, and which (the first dozen, then how many more). */
function thingsLine(group: RuleGroup): string {
  const kind = group.findings[0]?.about.kind;
  const noun = kind === 'tool' ? 'tool' : kind === 'prompt' ? 'prompt' : kind === 'frame' ? 'frame' : kind === 'resource' || kind === 'resource-template' ? 'resource' : 'thing';
  const n = group.things.length;
  const shown = group.things.slice(0, 12).join(', ');
  return `${n} ${noun}${n === 1 ? '' : 's'}: ${shown}${n > 12 ? ` and ${n - 12} more` : ''}`;
}

function RuleLine({ group, onShowFrame }: { group: RuleGroup; onShowFrame(seq: number): void }): ReactNode {
  const first = group.findings[0];
  const section = SECTION[group.severity];
  const one = group.findings.length === 1;
  return (
    <li className="space-y-1 border-t border-zinc-200 py-2 first:border-t-0 dark:border-zinc-700">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <Badge tone={section.tone}>{section.word}</Badge>
        <code className="font-mono text-zinc-700 dark:text-zinc-200"><Text>{group.rule}</Text></code>
        {group.provider !== undefined && <Badge><Text>{providerLabel(group.provider)}</Text></Badge>}
        {!one && <span className="text-zinc-600 dark:text-zinc-300">× {group.findings.length}</span>}
      </div>
      <p className="text-sm font-medium text-zinc-900 dark:text-zinc-100"><Text>{thingsLine(group)}</Text></p>
      {one && <p className="text-sm text-zinc-900 dark:text-zinc-100"><Text>{first.message}</Text></p>}
      <p className="text-sm text-zinc-700 dark:text-zinc-200">Fix: <Text>{first.fix}</Text></p>
      <SourceLine source={first.source} />
      {!one && (
        <details className="text-sm">
          <summary className="cursor-pointer text-xs text-zinc-700 dark:text-zinc-200">Each finding ({group.findings.length})</summary>
          <ul className="mt-1 list-inside list-disc space-y-0.5 text-zinc-800 dark:text-zinc-100">
            {group.findings.map((f, i) => <li key={i}><Text>{f.message}</Text></li>)}
          </ul>
        </details>
      )}
      {first.about.kind === 'frame' && (
        <div className="flex flex-wrap gap-1">
          {group.findings.map((f, i) => f.about.kind === 'frame' && (
            <button key={i} type="button" className={`${buttonClass} !px-2 !py-0.5 !text-xs`} onClick={() => onShowFrame(f.about.kind === 'frame' ? f.about.seq : 0)}>Show in History{one ? '' : ` (#${f.about.seq})`}</button>
          ))}
        </div>
      )}
    </li>
  );
}

function Section({ severity, groups, onShowFrame }: { severity: Severity; groups: readonly RuleGroup[]; onShowFrame(seq: number): void }): ReactNode {
  const id = useId();
  const count = groups.reduce((n, g) => n + g.findings.length, 0);
  const title = SECTION[severity].title;
  const list = <ul>{groups.map((g) => <RuleLine key={g.key} group={g} onShowFrame={onShowFrame} />)}</ul>;
  // Info is what there is to know, not to act on: folded until asked for.
  if (severity === 'info') {
    return (
      <details role="group" aria-labelledby={id} className="rounded-md border border-zinc-200 px-3 py-2 dark:border-zinc-700">
        <summary id={id} className="cursor-pointer text-sm font-semibold text-zinc-800 dark:text-zinc-100">
          {title} <span className="ml-1 text-xs font-normal text-zinc-600 dark:text-zinc-300">({count} in {groups.length} rule{groups.length === 1 ? '' : 's'})</span>
        </summary>
        {list}
      </details>
    );
  }
  return (
    <div role="group" aria-labelledby={id} className="rounded-md border border-zinc-200 px-3 py-2 dark:border-zinc-700">
      <h3 id={id} className="text-sm font-semibold text-zinc-800 dark:text-zinc-100">
        {title} <span className="ml-1 text-xs font-normal text-zinc-600 dark:text-zinc-300">({count} in {groups.length} rule{groups.length === 1 ? '' : 's'})</span>
      </h3>
      {list}
    </div>
  );
}

export function FindingsByRule({ groups, onShowFrame }: { groups: readonly RuleGroup[]; onShowFrame(seq: number): void }): ReactNode {
  return (
    <div className="space-y-2">
      {(['error', 'warning', 'info'] as const).map((severity) => {
        const of = groups.filter((g) => g.severity === severity);
        return of.length === 0 ? null : <Section key={severity} severity={severity} groups={of} onShowFrame={onShowFrame} />;
      })}
    </div>
  );
}
