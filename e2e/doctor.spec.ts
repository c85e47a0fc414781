// The Doctor tab (issue 14): Run doctor on the broken schema zoo finds each planted problem in
// words and nothing on the clean tool, the report copies as Markdown, the tool definitions export
// with names every provider takes; server-everything has no errors; frames that break the spec
// (doctor-wire.mjs) are listed live and lead to History; axe passes on the tab, light and dark.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { AllServersPage } from './pages/all-servers-page.ts';
import { DoctorPage } from './pages/doctor-page.ts';
import { HistoryPage } from './pages/history-page.ts';
import { WorkspacePage } from './pages/workspace-page.ts';
import { EVERYTHING } from './support/servers.ts';
import { expect, test } from './support/test.ts';
import { workspaceFile } from './support/workspaces.ts';
import { seriousAxeFindings } from './support/axe.ts';

const ZOO = ['node', 'e2e/fixtures/doctor-zoo.mjs'];
const WIRE = ['node', 'e2e/fixtures/doctor-wire.mjs'];
const LONG_NAME = `long_${'x'.repeat(125)}`;
const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The planted problems (doctor-zoo.mjs): the thing, the rule that names it, its severity, and words its message must hold. */
const PLANTED: { group: `Tool ${string}` | 'Server'; rule: string; severity?: 'Error' | 'Warning'; words: RegExp }[] = [
  { group: 'Tool bad_type', rule: 'schema-invalid', severity: 'Error', words: /not valid JSON Schema 2020-12.*\/properties\/a\/type/ },
  { group: 'Tool dangling_ref', rule: 'schema-ref-dangling', severity: 'Error', words: /#\/\$defs\/missing at \/properties\/a, which points to nothing/ },
  { group: 'Tool remote_ref', rule: 'schema-ref-remote', severity: 'Error', words: /https:\/\/example\.com\/schemas\/city\.json/ },
  { group: 'Tool twin', rule: 'tool-name-duplicate', severity: 'Error', words: /"twin" more than once/ },
  { group: 'Tool poisoned_tool', rule: 'poison-unicode-invisible', severity: 'Error', words: /U\+200B ZERO WIDTH SPACE/ },
  { group: 'Server', rule: 'capability-not-served', severity: 'Error', words: /declares the prompts capability but prompts\/list failed/ },
  { group: 'Tool get weather', rule: 'tool-name-characters', severity: 'Warning', words: /"get weather" has a space in its name/ },
  { group: `Tool ${LONG_NAME}`, rule: 'tool-name-length', severity: 'Warning', words: /a name of 130 characters/ },
  { group: 'Tool missing_required', rule: 'schema-required-missing', severity: 'Warning', words: /requires "b", which is not among its properties/ },
  { group: 'Tool contradictory', rule: 'annotations-contradict', severity: 'Warning', words: /both read-only \(readOnlyHint\) and destructive \(destructiveHint\)/ },
  { group: 'Tool poisoned_tool', rule: 'poison-override-instructions', severity: 'Warning', words: /"Ignore previous instructions/ },
  { group: 'Tool poisoned_tool', rule: 'poison-hide-from-user', severity: 'Warning', words: /"do not tell the user"/ },
  // The providers' rules (their severity is the provider data's to say).
  { group: 'Tool root_one_of', rule: 'openai-strict-root-combinator', words: /puts oneOf at the top of its input schema/ },
  { group: 'Tool root_one_of', rule: 'anthropic-root-combinator', words: /puts oneOf at the top of its input schema/ },
  { group: 'Tool get weather', rule: 'openai-name-characters', words: /"get weather" has a space in its name/ },
  { group: 'Tool untitled', rule: 'missing-description', severity: 'Warning', words: /"untitled" has no description/ },
];
const PROVIDER_RULE = /^(openai|anthropic|gemini)-/;


async function setTheme(page: Page, dark: boolean): Promise<void> {
  const toggle = page.getByRole('button', { name: /(Dark|Light) theme/ });
  // The toggle names what it does: `Light theme` while the theme is dark.
  if ((await toggle.textContent())?.includes(dark ? 'Dark theme' : 'Light theme')) await toggle.click();
  await expect(toggle).toHaveAccessibleName(dark ? 'Light theme' : 'Dark theme');
}

test.describe('the Doctor tab', () => {
  test('on the schema zoo: each planted problem in words, nothing for ok_tool, the severity filter, Copy as Markdown', async ({ launch, loupe, page }) => {
    const app = await launch(ZOO);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const doctor = new DoctorPage(loupe);
    await doctor.open();
    await doctor.run();
    // Issue 26: the report leads by rule; the per-thing groups this test reads are one choice away.
    await doctor.groupBy('By thing');

    for (const { group, rule, severity, words } of PLANTED) {
      const finding = doctor.finding(group, rule);
      await expect(finding, `${group}: ${rule}`).toHaveCount(1);
      await expect(finding).toContainText(severity ? new RegExp(`^${severity}`) : /^(Error|Warning|Info)/);
      await expect(finding).toContainText(words);
      // Each says how to fix it, and links where the rule comes from.
      await expect(finding).toContainText('Fix:');
      await expect(finding.getByRole('link').first()).toHaveAttribute('href', /^https:\/\//);
    }
    // A provider finding carries the schema Loupe would send instead, folded until asked for.
    const strict = doctor.finding('Tool root_one_of', 'openai-strict-root-combinator');
    await strict.getByText(/^Cleaned schema for OpenAI \(strict\)$/).click();
    await expect(strict.getByRole('list', { name: 'Cleaned schema for OpenAI (strict)' })).toContainText('additionalProperties');
    // Provider rules come with the date their document was read.
    await expect(strict).toContainText(/\(read \d{4}-\d{2}-\d{2}\)/);

    // Nothing on the clean tool from the lint or the poison checks, and no error from any provider.
    const clean = await doctor.entries('Tool ok_tool');
    expect(clean.filter((e) => e.severity === 'Error' || !PROVIDER_RULE.test(e.rule)), JSON.stringify(clean)).toEqual([]);

    // The counts are those of the findings listed, and every error outside the providers' rules is a planted one.
    const counts = await doctor.counts();
    const all = await doctor.entries();
    expect(all.filter((e) => e.severity === 'Error').length).toBe(counts.error);
    expect(all.filter((e) => e.severity === 'Warning').length).toBe(counts.warning);
    expect(all.filter((e) => e.severity === 'Info').length).toBe(counts.info);
    const lintErrors = new Set(all.filter((e) => e.severity === 'Error' && !PROVIDER_RULE.test(e.rule)).map((e) => e.rule));
    expect(lintErrors).toEqual(new Set(PLANTED.filter((p) => p.severity === 'Error').map((p) => p.rule)));
    // Grouped by thing: the server first, then each tool.
    const groups = await doctor.groupNames();
    expect(groups[0]).toBe('Server');
    expect(groups).toEqual(expect.arrayContaining(['Tool bad_type', 'Tool get weather', 'Tool twin', 'Tool untitled']));

    // The severity filter hides and shows each severity.
    await doctor.severityBox('Errors').uncheck();
    await expect(doctor.findingsOf('Error')).toHaveCount(0);
    await expect(doctor.report()).toContainText(`${counts.error} findings are hidden by the severity filter`);
    await expect(doctor.findingsOf('Warning')).toHaveCount(counts.warning);
    await doctor.severityBox('Warnings').uncheck();
    await doctor.severityBox('Info').uncheck();
    await expect(doctor.findings()).toHaveCount(0);
    await expect(doctor.report()).toContainText('No findings at the severities shown.');
    for (const box of ['Errors', 'Warnings', 'Info'] as const) await doctor.severityBox(box).check();
    await expect(doctor.findings()).toHaveCount(counts.error + counts.warning + counts.info);

    // Copy as Markdown: the whole report, grouped, with the server's words escaped.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    await doctor.copyMarkdown().click();
    await expect(doctor.report().getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    expect(markdown.split('\n')[0]).toMatch(/^# Doctor: Doctor zoo /);
    expect(markdown).toContain(`**${counts.error} errors · ${counts.warning} warnings · ${counts.info} info**`);
    expect(markdown).toContain('## The server');
    for (const { rule } of PLANTED) expect(markdown).toContain(`\`${rule}\``);
    // One line per finding, the whole report whatever the filter showed.
    expect(markdown.split('\n').filter((line) => /^- [✖⚠ℹ] \*\*/.test(line))).toHaveLength(counts.error + counts.warning + counts.info);
  });

  test('on the schema zoo: tool definitions for OpenAI, Anthropic and Gemini, copied and downloaded', async ({ launch, loupe, page }) => {
    const app = await launch(ZOO);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const doctor = new DoctorPage(loupe);
    await doctor.open();

    await doctor.chooseFormat('OpenAI');
    const openai = (await doctor.definitionsJson()) as { type: string; function: { name: string; parameters: unknown } }[];
    expect(openai.length).toBeGreaterThanOrEqual(12);
    for (const tool of openai) {
      expect(tool.type).toBe('function');
      expect(tool.function.name).toMatch(PROVIDER_NAME);
    }
    const names = openai.map((t) => t.function.name);
    expect(names).toContain('ok_tool');
    expect(new Set(names).size, 'no two definitions share a name').toBe(names.length);
    // What the cleaning changed is said.
    await expect(doctor.exportPanel().getByRole('listitem').first()).toBeVisible();

    await doctor.chooseFormat('Anthropic');
    const anthropic = (await doctor.definitionsJson()) as { name: string; input_schema: unknown }[];
    expect(anthropic.every((t) => PROVIDER_NAME.test(t.name) && typeof t.input_schema === 'object')).toBe(true);

    await doctor.chooseFormat('Gemini');
    const gemini = (await doctor.definitionsJson()) as { functionDeclarations: { name: string }[] };
    expect(gemini.functionDeclarations.map((d) => d.name)).toContain('ok_tool');

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    await doctor.exportPanel().getByRole('button', { name: 'Copy definitions', exact: true }).click();
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(gemini);

    const [download] = await Promise.all([page.waitForEvent('download'), doctor.exportPanel().getByRole('button', { name: 'Download definitions', exact: true }).click()]);
    expect(download.suggestedFilename()).toMatch(/-gemini-tools\.json$/);
    const path = await download.path();
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(gemini);
  });

  test('on server-everything: no errors; what it does show is the providers\' subsets and info', async ({ launch, loupe }) => {
    const app = await launch(['node', EVERYTHING, 'stdio']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected', 30_000);
    const doctor = new DoctorPage(loupe);
    await doctor.open();
    await doctor.run();
    await doctor.groupBy('By thing');
    const counts = await doctor.counts();
    expect(counts.error).toBe(0);
    const all = await doctor.entries();
    expect(all.filter((e) => e.severity === 'Error')).toEqual([]);
    // Checked by hand (and with `mcp-loupe --doctor`): every tool's schema carries "$schema", which
    // Gemini's subset does not take; everything else is information (strict-mode notes, untitled
    // resources, annotations that make others moot, list_changed declared).
    const warnings = new Set(all.filter((e) => e.severity === 'Warning').map((e) => e.rule));
    expect([...warnings]).toEqual(['gemini-keyword']);
    await expect(doctor.finding('Tool echo', 'gemini-keyword')).toContainText('uses $schema in its input schema');
    await expect(doctor.finding('Server', 'list-changed-declared').first()).toBeVisible();
    // Nothing from the poison checks, and no spec violation on the wire.
    expect(all.filter((e) => e.rule.startsWith('poison-') && e.rule !== 'poison-pin-new')).toEqual([]);
    await expect(doctor.group('Frames')).toHaveCount(0);
  });

  test('on server-everything, by rule (issue 26): one line per rule naming its tools, warnings before the info, the info folded', async ({ launch, loupe }) => {
    const app = await launch(['node', EVERYTHING, 'stdio']);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected', 30_000);
    const doctor = new DoctorPage(loupe);
    await doctor.open();
    await doctor.run();
    await expect(doctor.grouping('By rule')).toBeChecked();
    const counts = await doctor.counts();
    expect(counts.warning).toBeGreaterThan(1);
    // The sections lead with what to act on: warnings (no errors here), then info.
    expect(await doctor.groupNames()).toEqual([expect.stringMatching(/^Warnings \(\d+ in 1 rule\)$/), expect.stringMatching(/^Info \(\d+ in \d+ rules?\)$/)]);
    // Every gemini-keyword warning is one line, naming the tools.
    const warnings = doctor.report().getByRole('group', { name: /^Warnings/ }).getByRole('listitem').filter({ hasText: /^Warning/ });
    await expect(warnings).toHaveCount(1);
    await expect(warnings).toContainText('gemini-keyword');
    await expect(warnings).toContainText(new RegExp(`${counts.warning} tools: .*\\becho\\b`));
    await expect(warnings).toContainText(`× ${counts.warning}`);
    // The info is folded until asked for.
    const info = doctor.report().getByRole('group', { name: /^Info/ });
    await expect(info.getByRole('listitem').first()).toBeHidden();
    await info.getByText(/^Info/).first().click();
    await expect(info.getByRole('listitem').first()).toBeVisible();
  });

  test('on a server that breaks the spec on the wire: the Frames group lists the bad frames live, and Show in History selects one', async ({ launch, loupe, page }) => {
    const app = await launch(WIRE);
    await loupe.open(app.url);
    await loupe.waitForStatus('Connected');
    const doctor = new DoctorPage(loupe);
    await doctor.open();
    await doctor.groupBy('By thing');
    // Without a run: the server's frames are checked as they arrive.
    const frames = doctor.findings('Frames');
    await expect(frames.filter({ hasText: /Frame #\d+ notifications\/message/ }).filter({ hasText: 'jsonrpc: expected "2.0", got "1.0"' })).toHaveCount(1);
    await expect(frames.filter({ hasText: /Frame #\d+ notifications\/message/ }).filter({ hasText: 'must not carry an id' })).toHaveCount(1);
    await expect(frames.filter({ hasText: /Frame #\d+ tools\/list/ }).filter({ hasText: 'inputSchema: required' })).toHaveCount(1);
    await expect(frames).toHaveCount(3);
    for (const item of await frames.all()) {
      await expect(item).toContainText(/^Error/);
      await expect(item.getByRole('link')).toHaveAttribute('href', /^https:\/\/modelcontextprotocol\.io\/specification\/2025-11-25\//);
    }

    const listed = frames.filter({ hasText: /tools\/list/ });
    const seq = Number(/Frame #(\d+)/.exec((await listed.textContent()) ?? '')?.[1]);
    expect(seq).toBeGreaterThan(0);
    await listed.getByRole('button', { name: 'Show in History', exact: true }).click();
    await expect(loupe.tab('History')).toHaveAttribute('aria-selected', 'true');
    const history = new HistoryPage(loupe);
    const current = history.rows().and(page.locator('[aria-current="true"]'));
    await expect(current).toHaveCount(1);
    await expect(current).toContainText('tools/list');
    await expect(history.detail()).toContainText(`#${seq}`);
    await expect(history.detail()).toContainText('inputSchema: required');

    // A frame that breaks the schema later joins the list while the session runs: ping is answered with result and error both.
    await history.ping();
    await doctor.open();
    await expect(frames.filter({ hasText: 'has both "result" and "error"' })).toHaveCount(1);
    await expect(frames).toHaveCount(4);
    // A run adds the lint's findings and the report's view of the same frames, each frame listed once
    // (the run's own tools/list is another bad frame, listed as it arrives).
    await doctor.run();
    await expect(frames.filter({ hasText: 'inputSchema: required' })).toHaveCount(2);
    await expect(frames).toHaveCount(5);
    const seqs = (await frames.allTextContents()).map((text) => /Frame #(\d+)/.exec(text)?.[1]);
    expect(new Set(seqs).size, seqs.join(', ')).toBe(5);
    await expect(doctor.finding('Tool no-schema', 'schema-not-object')).toContainText(/^Error.*input schema of tool "no-schema" is missing/);
    await expect(doctor.finding('Server', 'capability-undeclared')).toContainText(/prompts\/list.*did not declare the prompts capability/);
  });

  test('All servers: every connected server\'s tool definitions, named server__tool', async ({ launch, loupe, page }) => {
    const file = workspaceFile({ zoo: { command: 'node', args: [resolve(ZOO[1])] }, wire: { command: 'node', args: [resolve(WIRE[1])] } });
    const app = await launch(['--config', file]);
    await loupe.open(app.url);
    const ws = new WorkspacePage(page);
    await ws.waitForServer('zoo', 'Connected');
    await ws.waitForServer('wire', 'Connected');
    const all = new AllServersPage(page);
    await all.open();
    await all.region().getByRole('tab', { name: 'Export tools', exact: true }).click();
    const doctor = new DoctorPage(loupe);
    await doctor.chooseFormat('OpenAI');
    await expect(doctor.definitions()).toHaveValue(/"wire__video"/);
    const names = ((await doctor.definitionsJson()) as { function: { name: string } }[]).map((t) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(['zoo__ok_tool', 'zoo__bad_type', 'wire__video']));
    for (const name of names) expect(name).toMatch(PROVIDER_NAME);
    expect(new Set(names).size, 'no two definitions share a name').toBe(names.length);
    // The format is the tab's choice: the Doctor tab of one server shows the same.
    await doctor.chooseFormat('Anthropic');
    await expect(doctor.definitions()).toHaveValue(/"input_schema"/);
  });

  test.describe('accessibility', () => {
    // axe is injected as an inline script, which Loupe's CSP forbids; this context alone ignores the CSP.
    test.use({ bypassCSP: true });

    test('axe finds no serious or critical violation on the Doctor tab with a report, light and dark', async ({ launch, loupe, page }) => {
      const app = await launch(ZOO);
      await loupe.open(app.url);
      await loupe.waitForStatus('Connected');
      const doctor = new DoctorPage(loupe);
      await doctor.open();
      const found: Record<string, unknown[]> = {};
      found['before a run'] = await seriousAxeFindings(page);
      await doctor.run();
      found['by rule'] = await seriousAxeFindings(page);
      await doctor.groupBy('By thing');
      await doctor.findings('Tool root_one_of').getByText(/^Cleaned schema/).first().click();
      for (const dark of [false, true]) {
        await setTheme(page, dark);
        found[dark ? 'dark' : 'light'] = await seriousAxeFindings(page);
      }
      expect(found).toEqual({ 'before a run': [], 'by rule': [], light: [], dark: [] });
    });
  });
});
