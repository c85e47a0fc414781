/**
 * `mcp-loupe --doctor` and `--export-tools` through the built CLI (issue 14): the zoo fixture's
 * planted problems in the report and its exit 1; server-everything with no error (exit 0); the
 * Markdown and JSON forms; the definitions for each provider, their names within the provider's
 * pattern. Needs a current build (`node .ci/build.mjs proxy`). Every process started here is stopped.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../lib/model/doctor.ts';
import { runBuiltCli, stopChild } from '../../testing/children.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const ZOO = [process.execPath, join(ROOT, 'e2e', 'fixtures', 'doctor-zoo.mjs')];
const EVERYTHING = [process.execPath, join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')];
const APPS = [process.execPath, join(ROOT, 'e2e', 'fixtures', 'apps-server.mjs')];
const children: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(children.map(stopChild));
});

const loupe = (args: string[]) => runBuiltCli(args, children);

describe('--doctor', () => {
  it('finds what the zoo plants, says how to fix it, and exits 1', async () => {
    const out = await loupe(['--doctor', ...ZOO]);
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(/^Doctor: Doctor zoo 0.0.1 \(protocol 2025-11-25\)\n/);
    for (const rule of ['schema-invalid', 'schema-ref-dangling', 'schema-ref-remote', 'tool-name-characters', 'tool-name-length', 'tool-name-duplicate', 'schema-required-missing', 'annotations-contradict', 'capability-not-served', 'poison-unicode-invisible', 'poison-override-instructions']) {
      expect(out.stdout, rule).toContain(` ${rule}`);
    }
    expect(out.stdout).toContain('Tool "get weather"');
    expect(out.stdout).toMatch(/fix: /);
    expect(out.stdout).not.toContain('Tool "ok_tool"\n  ✖');
  });

  it('gives the same report as JSON and as Markdown', async () => {
    const json = await loupe(['--doctor', '--format', 'json', ...ZOO]);
    const report = JSON.parse(json.stdout) as DoctorReport;
    expect(report.counts.error).toBeGreaterThan(0);
    expect(report.findings.every((f) => f.source.url.startsWith('https://'))).toBe(true);
    expect(report.findings.filter((f) => f.about.kind === 'tool' && f.about.name === 'ok_tool' && f.severity === 'error')).toEqual([]);
    const md = await loupe(['--doctor', '--format', 'markdown', ...ZOO]);
    expect(md.stdout).toMatch(/^# Doctor: Doctor zoo 0\\.0\\.1/);
    expect(md.stdout).toContain('## Tool "get weather"');
  });

  it('finds no error on server-everything (exit 0)', async () => {
    const out = await loupe(['--doctor', '--format', 'json', ...EVERYTHING]);
    const report = JSON.parse(out.stdout) as DoctorReport;
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(out.code).toBe(0);
  });

  it('compares the tools with the hashes a --config workspace pinned (a changed, a new and a gone tool), as the Doctor tab does', async () => {
    // The pins as the page saves them: every tool of server-everything as it is now, then one edited and one gone.
    const first = JSON.parse((await loupe(['--cli', '--method', 'tools/list', ...EVERYTHING])).stdout) as { tools: { name: string }[] };
    const { toolPins } = await import('../../../lib/doctor/poison.ts');
    const pins: Record<string, string> = toolPins(first.tools);
    const [changed, dropped] = first.tools.map((t) => t.name);
    pins[changed] = 'fnv1a64:0000000000000000';
    delete pins[dropped];
    pins.retired_tool = 'fnv1a64:1111111111111111';
    const file = join(mkdtempSync(join(tmpdir(), 'loupe-pins-')), 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { everything: { command: EVERYTHING[0], args: EVERYTHING.slice(1) } }, 'x-mcp-loupe': { version: 1, servers: { everything: { toolPins: pins } } } }));
    const out = await loupe(['--doctor', '--format', 'json', '--config', file]);
    const report = JSON.parse(out.stdout) as DoctorReport;
    const pinned = report.findings.filter((f) => f.rule.startsWith('poison-pin-')).map((f) => [f.rule, f.about.kind === 'tool' ? f.about.name : '']);
    expect(pinned.sort()).toEqual([['poison-pin-changed', changed], ['poison-pin-new', dropped], ['poison-pin-removed', 'retired_tool']].sort());
    // Without pins there is nothing to compare: no pin finding at all.
    const bare = JSON.parse((await loupe(['--doctor', '--format', 'json', ...EVERYTHING])).stdout) as DoctorReport;
    expect(bare.findings.filter((f) => f.rule.startsWith('poison-pin-'))).toEqual([]);
  });

  it('reads every view the tools link and says, in words, what is wrong with each (issue 24)', async () => {
    const out = await loupe(['--doctor', ...APPS]);
    expect(out.code).toBe(1);
    for (const words of [
      'The view ui://apps/missing, linked by tool "broken-link", cannot be read: resources/read failed:',
      'The resource ui://apps/wrong-mime is text/html, not text/html;profile=mcp-app',
      'The view ui://apps/early, linked by tool "early-talker", is not in resources/list',
      'Tool "not-ui-link" links the view https://example.com/view in _meta.ui.resourceUri, which is not a ui:// URI',
      'Tool "old-style-link" names its view ui://apps/counter only in the deprecated _meta["ui/resourceUri"]',
      'The view ui://apps/wide-csp declares CSP sources that are too wide: connectDomains "https:" allows every host over https; resourceDomains "*" allows every host.',
      'connectDomains "https://api.example.com; script-src *" contains a semicolon, which would start another directive',
    ]) expect(out.stdout).toContain(words);
    // A view that reads well (the counter's, with no CSP problem) has nothing said about it.
    expect(out.stdout).not.toContain('ui://apps/counter,');
    expect(out.stdout).not.toContain('The view ui://apps/csp-breaker');
  });

  it('refuses --format markdown without --doctor', async () => {
    const out = await loupe(['--cli', '--method', 'tools/list', '--format', 'markdown', ...EVERYTHING]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--format markdown is for --doctor');
  });
});

describe('--export-tools', () => {
  it('prints OpenAI tools whose names fit the pattern, the renames on stderr', async () => {
    const out = await loupe(['--export-tools', 'openai', ...ZOO]);
    expect(out.code).toBe(0);
    const tools = JSON.parse(out.stdout) as { type: string; function: { name: string } }[];
    expect(tools.length).toBeGreaterThan(5);
    for (const tool of tools) {
      expect(tool.type).toBe('function');
      expect(tool.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    }
    expect(out.stderr).toContain('get weather');
  });

  it('prints Anthropic tools and Gemini function declarations', async () => {
    const anthropic = JSON.parse((await loupe(['--export-tools', 'anthropic', ...EVERYTHING])).stdout) as { name: string; input_schema: { type: string } }[];
    expect(anthropic.map((t) => t.name)).toContain('echo');
    expect(anthropic.every((t) => t.input_schema.type === 'object')).toBe(true);
    const gemini = JSON.parse((await loupe(['--export-tools', 'gemini', ...EVERYTHING])).stdout) as { functionDeclarations: { name: string; parameters?: Record<string, unknown> }[] };
    expect(gemini.functionDeclarations.map((t) => t.name)).toContain('echo');
    expect(JSON.stringify(gemini)).not.toContain('$schema');
  });

  it('names the formats it knows when given another', async () => {
    const out = await loupe(['--export-tools', 'mistral', ...EVERYTHING]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--export-tools expects openai, anthropic or gemini, got "mistral".');
  });
});
