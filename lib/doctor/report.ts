/**
 * The doctor's report in words (issue 14): plain text for a terminal, Markdown to paste into an
 * issue or a PR (the page's `Copy as Markdown` and `--doctor --format markdown`), and JSON. Findings
 * grouped by the thing they are about, errors first.
 */
import type { DoctorReport, Finding, FindingSubject } from '../model/doctor.ts';

const MARK = { error: '✖', warning: '⚠', info: 'ℹ' } as const;

export function subjectLabel(about: FindingSubject): string {
  switch (about.kind) {
    case 'server':
      return 'The server';
    case 'frame':
      return `Frame #${about.seq}${about.method ? ` (${about.method})` : ''}`;
    case 'resource-template':
      return `Resource template ${JSON.stringify(about.name)}`;
    default:
      return `${about.kind[0].toUpperCase()}${about.kind.slice(1)} ${JSON.stringify(about.name)}`;
  }
}

/** Findings grouped by the thing they are about, in the report's order (first appearance). */
export function groupFindings(findings: readonly Finding[]): { label: string; about: FindingSubject; findings: Finding[] }[] {
  const groups = new Map<string, { label: string; about: FindingSubject; findings: Finding[] }>();
  for (const f of findings) {
    const label = subjectLabel(f.about);
    const group = groups.get(label) ?? { label, about: f.about, findings: [] };
    group.findings.push(f);
    groups.set(label, group);
  }
  return [...groups.values()];
}

/** One rule's findings of one severity (and provider): a line of the report by rule, the things listed. */
export interface RuleGroup {
  key: string;
  severity: Finding['severity'];
  rule: string;
  provider?: string;
  /** The things it is about, in order, each once: a tool's or prompt's name, `the server`, `#12` for a frame. */
  things: string[];
  findings: Finding[];
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** A thing's short name in a rule's list. */
export function thingName(about: FindingSubject): string {
  switch (about.kind) {
    case 'server':
      return 'the server';
    case 'frame':
      return `#${about.seq}`;
    default:
      return about.name;
  }
}

/**
 * Findings grouped by rule (issue 26): what to act on first (errors, then warnings, then info),
 * within a severity the rules that hit the most things first, then in the report's order. Nineteen
 * tools with the same provider keyword warning are one group naming the nineteen.
 */
export function groupByRule(findings: readonly Finding[]): RuleGroup[] {
  const groups = new Map<string, RuleGroup & { first: number }>();
  findings.forEach((f, at) => {
    const key = `${f.severity}\n${f.rule}\n${f.provider ?? ''}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, severity: f.severity, rule: f.rule, ...(f.provider !== undefined ? { provider: f.provider } : {}), things: [], findings: [], first: at };
      groups.set(key, group);
    }
    group.findings.push(f);
    const name = thingName(f.about);
    if (!group.things.includes(name)) group.things.push(name);
  });
  return [...groups.values()]
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || b.findings.length - a.findings.length || a.first - b.first)
    .map(({ first: _first, ...group }) => group);
}

export function summaryLine(report: DoctorReport): string {
  const { error, warning, info } = report.counts;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(error, 'error')} · ${plural(warning, 'warning')} · ${info} info`;
}

function title(report: DoctorReport): string {
  const s = report.server;
  return `${s.title ?? s.name}${s.version ? ` ${s.version}` : ''}${report.protocolVersion ? ` (protocol ${report.protocolVersion})` : ''}`;
}

export function reportText(report: DoctorReport): string {
  const lines = [`Doctor: ${title(report)}`, summaryLine(report), ''];
  if (report.findings.length === 0) lines.push('Nothing found.');
  for (const group of groupFindings(report.findings)) {
    lines.push(group.label);
    for (const f of group.findings) {
      lines.push(`  ${MARK[f.severity]} ${f.severity} ${f.rule}${f.provider ? ` [${f.provider}]` : ''}: ${f.message}`);
      lines.push(`      fix: ${f.fix}`);
      lines.push(`      see: ${f.source.label} <${f.source.url}>${f.source.read ? ` (read ${f.source.read})` : ''}`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Markdown-safe text: a server's words must not turn into links, headings or HTML in an issue tracker. */
function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
}

export function reportMarkdown(report: DoctorReport): string {
  const lines = [`# Doctor: ${md(title(report))}`, '', `**${summaryLine(report)}**`, ''];
  if (report.findings.length === 0) lines.push('Nothing found.');
  for (const group of groupFindings(report.findings)) {
    lines.push(`## ${md(group.label)}`, '');
    for (const f of group.findings) {
      lines.push(`- ${MARK[f.severity]} **${f.severity}** \`${f.rule}\`${f.provider ? ` (${f.provider})` : ''}: ${md(f.message)}`);
      lines.push(`  - Fix: ${md(f.fix)}`);
      lines.push(`  - Source: [${md(f.source.label)}](${f.source.url})${f.source.read ? ` (read ${f.source.read})` : ''}`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

export function reportJson(report: DoctorReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
