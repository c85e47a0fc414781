/**
 * What the Doctor tab shows, computed from the report and the live trace (issue 14, points 2 and 7):
 * the report's findings plus the frames the trace index marked as breaking the protocol's schema
 * (`spec-schema`, found while the session runs, so they are listed before and between runs),
 * grouped by the thing they are about, filtered by severity, and counted. Pure functions: the
 * container memoises them over the report and the trace's version.
 */
import type { Finding, FindingSubject, Severity } from '../../lib/model/doctor.ts';
import { summaryLine } from '../../lib/doctor/report.ts';
import type { HistoryRow } from '../../lib/trace/trace.ts';
import { specLabel } from '../../lib/trace/violations.ts';
import type { FindingGroup } from '@/components/doctor/report.tsx';

/** The trace index's code for a frame that does not match the negotiated version's schema. */
export const SPEC_SCHEMA = 'spec-schema';

const SPEC_SCHEMA_FIX = 'Make the message match the schema of the protocol version the session negotiated.';
/** Where a violation names no section: the schema reference of the spec Loupe speaks by default. */
const SCHEMA_PAGE = 'https://modelcontextprotocol.io/specification/2025-11-25/schema';

/** The schema violations marked on the rows of the server's frames, one finding each, oldest frame first. */
export function liveFrameFindings(rows: readonly HistoryRow[], violationRows: number): Finding[] {
  const found: Finding[] = [];
  if (violationRows === 0) return found;
  for (const row of rows) {
    // Loupe's own frames (a hand-written one from the composer) are not the server's to fix.
    if (!row.violations || row.dir === 'out') continue;
    for (const violation of row.violations) {
      // A string comparison: the code joins ViolationCode with the spec validation (lib/trace/violations.ts).
      if ((violation.code as string) !== SPEC_SCHEMA) continue;
      const url = violation.spec ?? SCHEMA_PAGE;
      // A response names its method through the request it answers.
      const method = row.method ?? row.partner?.method;
      found.push({
        severity: 'error',
        about: { kind: 'frame', seq: row.seq, ...(method !== undefined ? { method } : {}) },
        rule: SPEC_SCHEMA,
        message: violation.message,
        fix: SPEC_SCHEMA_FIX,
        source: { label: specLabel(url), url },
      });
    }
  }
  return found;
}

function frameKey(finding: Finding): string | undefined {
  return finding.about.kind === 'frame' ? `${finding.about.seq}\n${finding.rule}\n${finding.message}` : undefined;
}

/**
 * The report's findings and the live ones together. A frame the report also names (the proxy runs
 * the same validation over its trace) is listed once; the live list wins, being the newer.
 */
export function mergeFindings(report: readonly Finding[], live: readonly Finding[]): Finding[] {
  if (live.length === 0) return [...report];
  const liveKeys = new Set(live.map(frameKey));
  const liveSeqs = new Set(live.map((f) => (f.about.kind === 'frame' ? f.about.seq : -1)));
  const kept = report.filter((f) => {
    const key = frameKey(f);
    if (key === undefined) return true;
    return !liveKeys.has(key) && !(f.rule === SPEC_SCHEMA && f.about.kind === 'frame' && liveSeqs.has(f.about.seq));
  });
  return [...kept, ...live];
}

export function filterFindings(findings: readonly Finding[], shown: Readonly<Record<Severity, boolean>>): Finding[] {
  return findings.filter((f) => shown[f.severity]);
}

const KIND_ORDER: Record<FindingSubject['kind'], number> = { server: 0, tool: 1, resource: 2, 'resource-template': 3, prompt: 4, frame: 5 };

function groupKey(about: FindingSubject): string {
  if (about.kind === 'server') return 'server';
  if (about.kind === 'frame') return 'frames';
  return `${about.kind}\n${about.name}`;
}

/**
 * Findings grouped by thing: the server, then each tool, resource, resource template and prompt
 * in the order the report first names them, then every frame (by seq). Within a group errors
 * come first, then warnings, then info, each in the report's order.
 */
export function groupFindings(findings: readonly Finding[]): FindingGroup[] {
  const groups = new Map<string, Omit<FindingGroup, 'findings'> & { findings: Finding[]; order: number; first: number }>();
  findings.forEach((finding, i) => {
    const key = groupKey(finding.about);
    let group = groups.get(key);
    if (!group) {
      const about = finding.about;
      group = { key, kind: about.kind, name: 'name' in about ? about.name : undefined, findings: [], order: KIND_ORDER[about.kind], first: i };
      groups.set(key, group);
    }
    group.findings.push(finding);
  });
  const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
  return [...groups.values()]
    .sort((a, b) => a.order - b.order || a.first - b.first)
    .map(({ key, kind, name, findings: list }) => {
      const sorted = kind === 'frame'
        ? [...list].sort((a, b) => (a.about.kind === 'frame' && b.about.kind === 'frame' ? a.about.seq - b.about.seq : 0) || rank[a.severity] - rank[b.severity])
        : [...list].sort((a, b) => rank[a.severity] - rank[b.severity]);
      return { key, kind, name, findings: sorted };
    });
}

/** `2 errors · 5 warnings · 3 info`, in the words of the CLI's report (lib/doctor/report.ts). */
export function summaryText(counts: Readonly<Record<Severity, number>>): string {
  return summaryLine({ server: { name: '' }, findings: [], counts: { ...counts } });
}
