import { describe, expect, it } from 'vitest';
import { groupByRule, groupFindings, reportJson, reportMarkdown, reportText, summaryLine } from './report.ts';
import { sortFindings } from './doctor.ts';
import { countFindings, type DoctorReport, type Finding } from '../model/doctor.ts';

const SPEC = { label: 'MCP 2025-11-25, tool names', url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names' };
const finding = (over: Partial<Finding>): Finding => ({ severity: 'warning', about: { kind: 'server' }, rule: 'r', message: 'Something.', fix: 'Fix it.', source: SPEC, ...over });

function report(findings: Finding[]): DoctorReport {
  const sorted = sortFindings(findings);
  return { server: { name: 'zoo', version: '1.0.0' }, protocolVersion: '2025-11-25', findings: sorted, counts: countFindings(sorted) };
}

describe('the doctor report', () => {
  const findings = [
    finding({ severity: 'info', about: { kind: 'tool', name: 'b' }, rule: 'tool-title', message: 'Tool "b" has no title.' }),
    finding({ severity: 'error', about: { kind: 'tool', name: 'get weather' }, rule: 'tool-name-characters', message: 'Tool "get weather" has a space in its name.', fix: 'Use get_weather.' }),
    finding({ severity: 'warning', about: { kind: 'frame', seq: 12, method: 'tools/list' }, rule: 'spec-schema', message: 'Frame #12 breaks the schema.' }),
    finding({ severity: 'error', about: { kind: 'server' }, rule: 'capability-not-served', message: 'The server declares prompts but prompts/list fails.' }),
  ];

  it('puts errors first, then by thing, and counts each severity', () => {
    const r = report(findings);
    expect(r.findings.map((f) => f.rule)).toEqual(['capability-not-served', 'tool-name-characters', 'spec-schema', 'tool-title']);
    expect(summaryLine(r)).toBe('2 errors · 1 warning · 1 info');
    expect(groupFindings(r.findings).map((g) => g.label)).toEqual(['The server', 'Tool "get weather"', 'Frame #12 (tools/list)', 'Tool "b"']);
  });

  it('reads as text with the fix and the source of each finding', () => {
    const text = reportText(report(findings));
    expect(text.split('\n').slice(0, 2)).toEqual(['Doctor: zoo 1.0.0 (protocol 2025-11-25)', '2 errors · 1 warning · 1 info']);
    expect(text).toContain('  ✖ error tool-name-characters: Tool "get weather" has a space in its name.\n      fix: Use get_weather.\n      see: MCP 2025-11-25, tool names <https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names>');
    expect(reportText(report([]))).toContain('Nothing found.');
  });

  it('is Markdown in which a server’s words cannot become links or markup', () => {
    const md = reportMarkdown(report([finding({ about: { kind: 'tool', name: '[click](http://evil)' }, message: 'Tool "[click](http://evil)" <b>x</b>.' })]));
    expect(md).toContain('## Tool "\\[click\\]\\(http://evil\\)"');
    expect(md).toContain('Tool "\\[click\\]\\(http://evil\\)" \\<b\\>x\\</b\\>\\.');
    expect(md).toContain('  - Source: [MCP 2025\\-11\\-25, tool names](https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names)');
  });

  it('is JSON that reads back as the same report', () => {
    const r = report(findings);
    expect(JSON.parse(reportJson(r))).toEqual(r);
  });
});

describe('groupByRule', () => {
  const keyword = (tool: string) => finding({ severity: 'warning', about: { kind: 'tool', name: tool }, rule: 'gemini-keyword', provider: 'gemini', message: `Tool "${tool}" uses a keyword Gemini drops.` });
  const title = (tool: string) => finding({ severity: 'info', about: { kind: 'tool', name: tool }, rule: 'tool-title', message: `Tool "${tool}" has no title.` });

  it('makes one line per rule naming every thing, errors first, then warnings, then info', () => {
    const findings = [title('a'), keyword('a'), keyword('b'), title('b'), keyword('c'), finding({ severity: 'error', about: { kind: 'frame', seq: 12 }, rule: 'spec-schema' }), finding({ severity: 'warning', about: { kind: 'server' }, rule: 'server-instructions' })];
    const groups = groupByRule(findings);
    expect(groups.map((g) => [g.severity, g.rule, g.things])).toEqual([
      ['error', 'spec-schema', ['#12']],
      ['warning', 'gemini-keyword', ['a', 'b', 'c']],
      ['warning', 'server-instructions', ['the server']],
      ['info', 'tool-title', ['a', 'b']],
    ]);
    expect(groups[1].provider).toBe('gemini');
    expect(groups[1].findings).toHaveLength(3);
    // Every finding is in exactly one group.
    expect(groups.reduce((n, g) => n + g.findings.length, 0)).toBe(findings.length);
  });

  it('keeps one rule of two providers apart, and names a thing once', () => {
    const twice = finding({ severity: 'warning', about: { kind: 'tool', name: 'x' }, rule: 'root-combinator', provider: 'openai' });
    const groups = groupByRule([twice, { ...twice }, { ...twice, provider: 'anthropic' }]);
    expect(groups.map((g) => [g.provider, g.things, g.findings.length])).toEqual([['openai', ['x'], 2], ['anthropic', ['x'], 1]]);
  });
});
