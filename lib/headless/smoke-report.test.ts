import { describe, expect, it } from 'vitest';
import { formatSmokeText, oneLine, smokeExitCode, smokeJunit, smokeTotals, summaryLine, worstVerdict, type SmokeCase, type SmokeReport, type SmokeTool } from './smoke-report.ts';

const passed = (label = 'valid arguments'): SmokeCase => ({ kind: 'valid', label, outcome: 'ok', verdict: 'passed', reason: 'Answered with a result.', ms: 3, arguments: {}, response: '{"content":[]}' });
const toolOf = (name: string, verdict: SmokeTool['verdict'], cases: SmokeCase[], extra: Partial<SmokeTool> = {}): SmokeTool => ({ name, verdict, reason: cases.find((c) => c.verdict === verdict)?.reason ?? '', ms: 7, cases, ...extra });

function report(tools: SmokeTool[], extra: Partial<SmokeReport> = {}): SmokeReport {
  return { server: { name: 'srv', version: '1.2.3' }, protocolVersion: '2025-11-25', startedAt: '2025-01-01T00:00:00.000Z', ms: 1500, timeoutMs: 1000, negative: true, allowWrites: false, tools, problems: [], restarts: 0, ...extra };
}

const crashCase: SmokeCase = { kind: 'valid', label: 'valid arguments', outcome: 'crash', verdict: 'failed', reason: 'The server exited with code 3.', ms: 40 };
const sample = report(
  [
    toolOf('echo', 'passed', [passed(), { ...passed('without required "message"'), outcome: 'is-error', reason: 'Refused with isError: no' }]),
    toolOf('lax', 'warning', [passed(), { kind: 'empty', label: 'no arguments ({})', outcome: 'ok', verdict: 'warning', reason: 'The server accepted arguments that its inputSchema does not allow.' }]),
    toolOf('boom', 'failed', [crashCase], { crash: { message: 'The server exited with code 3.', stderrTail: 'starting\nfatal: out of widgets\n', exitCode: 3 } }),
    toolOf('slow', 'failed', [{ kind: 'valid', label: 'valid arguments', outcome: 'timeout', verdict: 'failed', reason: 'Request timed out: no answer within 1000 ms.', ms: 1000 }, { kind: 'wrong-type', label: '"n" as string instead of number', outcome: 'ok', verdict: 'warning', reason: 'The server accepted arguments that its inputSchema does not allow.' }]),
    toolOf('bad', 'failed', [{ kind: 'valid', label: 'valid arguments', outcome: 'output-invalid', verdict: 'failed', reason: 'structuredContent does not match its outputSchema: /a must be string.', response: '{"structuredContent":{"a":1}}' }]),
    toolOf('task', 'skipped', [{ kind: 'valid', label: 'valid arguments', outcome: 'not-run', verdict: 'skipped', reason: 'It must be called as a task.' }]),
  ],
  { restarts: 1 },
);

describe('verdicts and exit codes', () => {
  it('the worst verdict wins: failed > warning > skipped > passed', () => {
    expect(worstVerdict(['passed', 'skipped'])).toBe('skipped');
    expect(worstVerdict(['skipped', 'warning', 'passed'])).toBe('warning');
    expect(worstVerdict(['warning', 'failed', 'passed'])).toBe('failed');
    expect(worstVerdict(['passed'])).toBe('passed');
    expect(worstVerdict([])).toBe('skipped');
  });

  it('0 with warnings and skips, 1 with a failed tool (a timeout too) or a failed tools/list, 4 when tools/list itself timed out', () => {
    expect(smokeExitCode(report([sample.tools[0], sample.tools[1], sample.tools[5]]))).toBe(0);
    expect(smokeExitCode(report([sample.tools[0], sample.tools[3]]))).toBe(1);
    expect(smokeExitCode(report([], { listError: { message: 'JSON-RPC error -32601: no tools', timedOut: false } }))).toBe(1);
    expect(smokeExitCode(report([], { listError: { message: 'Request timed out', timedOut: true } }))).toBe(4);
    expect(smokeExitCode(report([sample.tools[0]], { listError: { message: 'page 2 timed out', timedOut: true } }))).toBe(1);
    expect(smokeExitCode(report([]))).toBe(0);
  });

  it('counts tools by verdict and says so in plain words', () => {
    expect(smokeTotals(sample)).toEqual({ tools: 6, passed: 1, failed: 3, warnings: 1, skipped: 1 });
    expect(summaryLine(sample)).toBe('6 tools: 1 passed, 3 failed, 1 warning, 1 skipped');
    expect(summaryLine(report([sample.tools[0]]))).toBe('1 tool: 1 passed, 0 failed, 0 warnings');
  });
});

describe('formatSmokeText', () => {
  const text = formatSmokeText(sample);
  const lines = text.split('\n');

  it('has a header, one row per tool with verdict, ms and reason, and the summary last', () => {
    expect(lines[0]).toBe('Smoke test of srv 1.2.3 (protocol 2025-11-25), timeout 1000 ms per call');
    expect(lines).toContain('TOOL  VERDICT      MS  REASON');
    expect(lines).toContain('echo  passed        7  Answered with a result.');
    expect(lines).toContain('boom  FAILED        7  The server exited with code 3.');
    expect(lines).toContain('task  skipped       7  It must be called as a task.');
    expect(text.endsWith('\n6 tools: 1 passed, 3 failed, 1 warning, 1 skipped\n')).toBe(true);
  });

  it('lists the other cases that did not pass under their tool, and each crash with its stderr', () => {
    const slow = lines.indexOf('slow  FAILED        7  Request timed out: no answer within 1000 ms.');
    expect(lines[slow + 1]).toBe('        "n" as string instead of number: WARNING, The server accepted arguments that its inputSchema does not allow.');
    expect(lines.filter((l) => l.includes('The server exited with code 3.'))).toHaveLength(2);
    expect(text).toContain('"boom" ended the server: The server exited with code 3.\n  The end of its stderr:\n  | starting\n  | fatal: out of widgets\n');
    expect(text).toContain('Loupe restarted the server 1 time to go on with the next tool.');
  });

  it('writes server text as one line, with no terminal control sequences or bidi overrides', () => {
    const hostile = report([toolOf('evil\u001b[2J\nname\u202e', 'failed', [{ ...crashCase, reason: 'line one\nline two \u0007' }], { reason: 'line one\nline two \u0007' })], { server: { name: 'x\u001b]0;title\u0007' } });
    const out = formatSmokeText(hostile);
    expect([...out].filter((c) => c !== '\n' && (/\p{Cc}/u.test(c) || c === '\u202e'))).toEqual([]);
    expect(out).toContain('evil\\u001B[2J name\\u202E');
    expect(out).toContain('line one line two \\u0007');
    expect(out).toContain('Smoke test of x\\u001B]0;title\\u0007');
  });

  it('says when tools/list failed and what was odd about the list', () => {
    const out = formatSmokeText(report([], { listError: { message: 'JSON-RPC error -32601: Method not found', timedOut: false }, problems: ['tool #2: it has no string "name", so it cannot be called'] }));
    expect(out).toContain('tools/list failed: JSON-RPC error -32601: Method not found');
    expect(out).toContain('note: tool #2: it has no string "name", so it cannot be called');
    expect(out.trimEnd().split('\n').at(-1)).toBe('0 tools: 0 passed, 0 failed, 0 warnings');
  });

  it('says in one line how many tools were not called because they may change data, and the flag that calls them', () => {
    const skipped: SmokeCase = { kind: 'valid', label: 'valid arguments', outcome: 'may-change-data', verdict: 'skipped', reason: 'Not called: it says it may change data (readOnlyHint: false), destructively (destructiveHint: true). --allow-writes calls it too.' };
    const out = formatSmokeText(report([toolOf('read_file', 'passed', [passed()]), toolOf('write_file', 'skipped', [skipped]), toolOf('move_file', 'skipped', [skipped])]));
    expect(out).toContain('write_file  skipped       7  Not called: it says it may change data (readOnlyHint: false), destructively (destructiveHint: true). --allow-writes calls it too.');
    expect(out.trimEnd().split('\n').slice(-2)).toEqual(['2 of 3 tools not called: they may change data (no readOnlyHint: true); add --allow-writes to call them with made-up arguments too.', '3 tools: 1 passed, 0 failed, 0 warnings, 2 skipped']);
    expect(smokeExitCode(report([toolOf('write_file', 'skipped', [skipped])]))).toBe(0);
    const all = formatSmokeText(report([toolOf('read_file', 'passed', [passed()])], { allowWrites: true }));
    expect(all.split('\n')[0]).toBe('Smoke test of srv 1.2.3 (protocol 2025-11-25), timeout 1000 ms per call, tools that may change data called too');
    expect(all).not.toContain('not called');
  });

  it('cuts long text', () => {
    expect(oneLine('x'.repeat(500), 20)).toBe(`${'x'.repeat(19)}…`);
  });
});

describe('smokeJunit', () => {
  const xml = smokeJunit(sample);

  it('one testcase per tool and case: crash and timeout are errors, isError and outputSchema failures, skips skipped', () => {
    expect(xml).toContain('<testsuite name="mcp-loupe smoke: srv" tests="9" failures="1" errors="2" skipped="1" time="1.500" timestamp="2025-01-01T00:00:00.000Z">');
    expect(xml).toContain('<property name="serverVersion" value="1.2.3"/>');
    expect(xml).toContain('<property name="allowWrites" value="false"/>');
    expect(xml).toMatch(/<testcase name="valid arguments" classname="boom" time="0.040">\s*<error message="The server exited with code 3." type="crash"\/>/);
    expect(xml).toContain('<system-err>starting\nfatal: out of widgets\n</system-err>');
    expect(xml).toContain('<error message="Request timed out: no answer within 1000 ms." type="timeout"/>');
    expect(xml).toContain('<failure message="structuredContent does not match its outputSchema: /a must be string." type="output-invalid">{&quot;structuredContent&quot;:{&quot;a&quot;:1}}</failure>');
    expect(xml).toContain('<skipped message="It must be called as a task."/>');
  });

  it('a warning passes, with the warning in system-out', () => {
    expect(xml).toMatch(/<testcase name="no arguments \(\{\}\)" classname="lax" time="0.000">\s*<system-out>warning: The server accepted arguments/);
  });

  it('a failed tools/list is a failing testcase of its own', () => {
    expect(smokeJunit(report([], { listError: { message: 'timed out', timedOut: true } }))).toContain('<testcase name="tools/list" classname="smoke" time="0.000">\n      <failure message="timed out" type="timeout"/>');
  });
});

describe('tools with a view (MCP Apps, issue 24)', () => {
  it('are named with their view, those for views only said so; a report without any has no such line', () => {
    const withViews = report([toolOf('counter', 'passed', [passed()], { view: { uri: 'ui://apps/counter', appOnly: false } }), toolOf('counter_add', 'passed', [passed()], { view: { uri: 'ui://apps/counter', appOnly: true } }), toolOf('echo', 'passed', [passed()])]);
    expect(formatSmokeText(withViews)).toContain('2 tools with a view (MCP Apps; open one in the page to see it): counter → ui://apps/counter, counter_add → ui://apps/counter (for views only)');
    expect(formatSmokeText(report([toolOf('echo', 'passed', [passed()])]))).not.toContain('with a view');
  });
});

