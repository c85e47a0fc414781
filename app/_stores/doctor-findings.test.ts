import { describe, expect, it } from 'vitest';
import type { Finding } from '../../lib/model/doctor.ts';
import type { HistoryRow } from '../../lib/trace/trace.ts';
import type { Violation } from '../../lib/trace/violations.ts';
import { filterFindings, groupFindings, liveFrameFindings, mergeFindings, SPEC_SCHEMA, summaryText } from './doctor-findings.ts';

const source = { label: 'Tools', url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools' };
const finding = (over: Partial<Finding>): Finding => ({ severity: 'error', about: { kind: 'server' }, rule: 'r', message: 'm', fix: 'f', source, ...over });

function row(seq: number, violations?: Violation[], method = 'tools/list', dir: 'in' | 'out' = 'in'): HistoryRow {
  return { seq, ts: seq, dir, kind: 'response', method, event: { kind: 'frame', session: 's', seq, ts: seq, dir, raw: '{}' } as unknown as HistoryRow['event'], violations };
}

const schemaViolation = (message: string, spec?: string): Violation => ({ code: SPEC_SCHEMA as unknown as Violation['code'], message, ...(spec ? { spec } : {}) });

describe('liveFrameFindings', () => {
  it("turns each spec-schema violation of the server's frames into a frame finding, and nothing else", () => {
    const rows = [
      row(1),
      row(2, [{ code: 'jsonrpc-version', message: 'jsonrpc is "1.0".' }]),
      row(3, [schemaViolation('result.tools[0].name: expected a string', 'https://modelcontextprotocol.io/specification/2025-11-25/schema#tool')]),
      row(4, [schemaViolation('params: required'), schemaViolation('id: expected a string or number')], 'ping'),
      // A frame Loupe sent (the raw composer): not the server's to fix.
      row(5, [schemaViolation('params.name: required')], 'tools/call', 'out'),
    ];
    // A response named by the request it answers.
    const answer = { ...row(6, [schemaViolation('has both "result" and "error"')]), method: undefined, partner: row(5, undefined, 'ping', 'out') };
    rows.push(answer);
    const found = liveFrameFindings(rows, 5);
    expect(found.map((f) => [f.about, f.message])).toEqual([
      [{ kind: 'frame', seq: 3, method: 'tools/list' }, 'result.tools[0].name: expected a string'],
      [{ kind: 'frame', seq: 4, method: 'ping' }, 'params: required'],
      [{ kind: 'frame', seq: 4, method: 'ping' }, 'id: expected a string or number'],
      [{ kind: 'frame', seq: 6, method: 'ping' }, 'has both "result" and "error"'],
    ]);
    expect(found[0]).toMatchObject({ severity: 'error', rule: 'spec-schema', source: { label: 'Spec: 2025-11-25/schema#tool' } });
    expect(found[1].source.url).toBe('https://modelcontextprotocol.io/specification/2025-11-25/schema');
    // No row with a violation: the rows are not even looked at.
    expect(liveFrameFindings(rows, 0)).toEqual([]);
  });
});

describe('mergeFindings', () => {
  it('lists a frame the report also names once, and keeps everything else', () => {
    const tool = finding({ about: { kind: 'tool', name: 'a' } });
    const reported = finding({ about: { kind: 'frame', seq: 3 }, rule: SPEC_SCHEMA, message: 'older words' });
    const otherFrame = finding({ about: { kind: 'frame', seq: 9 }, rule: 'jsonrpc-version' });
    const live = finding({ about: { kind: 'frame', seq: 3, method: 'tools/list' }, rule: SPEC_SCHEMA, message: 'newer words' });
    expect(mergeFindings([tool, reported, otherFrame], [live])).toEqual([tool, otherFrame, live]);
    expect(mergeFindings([tool, reported], [])).toEqual([tool, reported]);
  });
});

describe('groupFindings', () => {
  it('groups by thing: server, tools in report order, resources, prompts, then frames by seq; errors first within a group', () => {
    const findings = [
      finding({ about: { kind: 'tool', name: 'b' }, severity: 'info', message: 'b-info' }),
      finding({ about: { kind: 'frame', seq: 7 }, message: 'frame-7' }),
      finding({ about: { kind: 'prompt', name: 'p' }, message: 'p' }),
      finding({ about: { kind: 'tool', name: 'a' }, message: 'a' }),
      finding({ about: { kind: 'server' }, severity: 'warning', message: 'server' }),
      finding({ about: { kind: 'tool', name: 'b' }, severity: 'error', message: 'b-error' }),
      finding({ about: { kind: 'frame', seq: 2 }, message: 'frame-2' }),
      finding({ about: { kind: 'resource', name: 'file:///x' }, message: 'r' }),
    ];
    const groups = groupFindings(findings);
    expect(groups.map((g) => [g.kind, g.name, g.findings.map((f) => f.message)])).toEqual([
      ['server', undefined, ['server']],
      ['tool', 'b', ['b-error', 'b-info']],
      ['tool', 'a', ['a']],
      ['resource', 'file:///x', ['r']],
      ['prompt', 'p', ['p']],
      ['frame', undefined, ['frame-2', 'frame-7']],
    ]);
  });
});

describe('filterFindings and summaryText', () => {
  it('keeps the severities asked for, and counts in words', () => {
    const findings = [finding({ severity: 'error' }), finding({ severity: 'warning' }), finding({ severity: 'info' })];
    expect(filterFindings(findings, { error: true, warning: false, info: true }).map((f) => f.severity)).toEqual(['error', 'info']);
    expect(summaryText({ error: 2, warning: 5, info: 3 })).toBe('2 errors · 5 warnings · 3 info');
    expect(summaryText({ error: 1, warning: 1, info: 1 })).toBe('1 error · 1 warning · 1 info');
    expect(summaryText({ error: 0, warning: 0, info: 0 })).toBe('0 errors · 0 warnings · 0 info');
  });
});
