// The Playground tab (issue 15) against server-everything and the scripted LLM servers of
// e2e/fixtures (real HTTP on 127.0.0.1): a two-step tool-using conversation through the
// OpenAI-compatible format and through the Anthropic format (both streamed), Approve and Deny,
// Stop during a tool call (notifications/cancelled in History), a permission gate whose refusal
// reaches the model, Compare, provider failures in words, the typed key found nowhere in the
// page's storage or the trace, and axe on the tab, light and dark.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { LoupePage } from './pages/loupe-page.ts';
import { PlaygroundPage } from './pages/playground-page.ts';
import type { Loupe } from './support/loupe.ts';
import { expectNoSeriousAxeFindings } from './support/axe.ts';
import { spawnProc, stopProc, waitForOutput, type Proc } from './support/processes.ts';
import { EVERYTHING } from './support/servers.ts';
import { expect, test } from './support/test.ts';

const KEY = 'test-key';

interface Llm {
  baseUrl: string;
  proc: Proc;
}

/** A scripted model server (llm-openai.mjs / llm-anthropic.mjs) on a free port. */
async function startLlm(kind: 'openai' | 'anthropic'): Promise<Llm> {
  const proc = spawnProc(process.execPath, [`e2e/fixtures/llm-${kind}.mjs`]);
  const match = await waitForOutput(proc, proc.stdout, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 10_000, `llm-${kind}`);
  return { baseUrl: `${match[1]}/v1`, proc };
}

const llms: Proc[] = [];
async function llm(kind: 'openai' | 'anthropic'): Promise<Llm> {
  const started = await startLlm(kind);
  llms.push(started.proc);
  return started;
}
test.afterEach(async () => {
  await Promise.all(llms.splice(0).map((proc) => stopProc(proc)));
});

/** Everything a fresh tab hears from Loupe at first (its snapshot holds the tail of every trace), as text. */
async function wireText(page: Page, wsUrl: string): Promise<string> {
  return page.evaluate(
    (url) =>
      new Promise<string>((done) => {
        const ws = new WebSocket(url);
        const seen: string[] = [];
        ws.onmessage = (e) => seen.push(String(e.data));
        setTimeout(() => {
          ws.close();
          done(seen.join('\n'));
        }, 1_500);
      }),
    wsUrl,
  );
}

/** Set the workspace's interception rules over the wire, as the Intercept tab does. */
async function setRules(page: Page, wsUrl: string, rules: unknown[]): Promise<void> {
  await page.evaluate(
    ({ url, rules }) =>
      new Promise<void>((done) => {
        const ws = new WebSocket(url);
        ws.onopen = () => {
          ws.send(JSON.stringify({ type: 'set-rules', rules }));
          setTimeout(() => {
            ws.close();
            done();
          }, 500);
        };
      }),
    { url: wsUrl, rules },
  );
}

/** Loupe on server-everything, connected, with the Playground tab open. */
async function openPlayground(launch: (target?: string[]) => Promise<Loupe>, loupe: LoupePage): Promise<{ app: Loupe; play: PlaygroundPage }> {
  const app = await launch(['node', EVERYTHING, 'stdio']);
  await loupe.open(app.url);
  await loupe.waitForStatus('Connected');
  const play = new PlaygroundPage(loupe);
  await play.open();
  return { app, play };
}

test.describe('the Playground', () => {
  test('OpenAI-compatible: a two-step echo with Approve, each step linked to History; the key is nowhere in storage or the trace', async ({ launch, loupe, page }) => {
    const model = await llm('openai');
    const { app, play } = await openPlayground(launch, loupe);
    await expect(play.checkbox('Approve every call')).not.toBeChecked();
    await play.setUp({ provider: 'OpenAI-compatible', baseUrl: model.baseUrl, key: KEY, model: 'script-echo' });
    // Listed only on the person's press: the tab itself asks the provider nothing.
    await page.getByRole('button', { name: 'List models', exact: true }).click();
    await expect(page.getByText(/\d+ models offered by the endpoint/).first()).toBeVisible();
    await play.send('hello loupe');

    const act = play.act('echo');
    await expect(act).toContainText('Waiting for approval');
    await expect(act).toContainText('"message"');
    await act.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(act.getByRole('group', { name: 'Observe: echo' })).toContainText('Echo: hello loupe');
    const conversation = play.conversation();
    await expect(conversation).toContainText('Let me echo that.');
    await expect(conversation).toContainText('The tool said: Echo: hello loupe');
    await expect(conversation).toContainText(/\d+ in · \d+ out tokens · \d+ ms/);
    await expect(conversation).toContainText('Tools chosen: echo');
    // The reply that calls no tool is labelled as the answer, the one that called echo as thinking.
    const answer = conversation.getByRole('listitem', { name: 'Answer (step 2)', exact: true });
    await expect(answer).toContainText('The tool said: Echo: hello loupe');
    await expect(answer).toContainText(/^Answer/);
    await expect(conversation.getByRole('listitem', { name: 'Step 1', exact: true })).toContainText(/^Think/);

    // The key: typed once, then only a reference in the page; not in storage, not in any trace event.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + location.href);
    expect(stored).not.toContain(KEY);
    await expect(page.getByLabel('API key', { exact: true })).toHaveValue('');
    const wire = await wireText(page, app.wsUrl);
    expect(wire).toContain('"kind":"provider"');
    expect(wire).toContain('Echo: hello loupe');
    expect(wire).not.toContain(KEY);

    // The Act step leads to its tools/call frame; the Think step to its provider exchange.
    await act.getByRole('button', { name: 'tools/call in History' }).click();
    await expect(loupe.tab('History')).toHaveAttribute('aria-selected', 'true');
    const current = loupe.history().locator('[aria-current="true"]');
    await expect(current).toHaveCount(1);
    await expect(current).toContainText('tools/call');
    await play.open();
    await conversation.getByRole('button', { name: 'Provider exchange in History' }).first().click();
    await expect(loupe.tab('History')).toHaveAttribute('aria-selected', 'true');
    await expect(loupe.history().locator('[aria-current="true"]')).toHaveCount(1);

    // A failing provider, in words, in the turn.
    await play.open();
    await play.field('Model').fill('fail-429');
    await play.send('again');
    await expect(conversation).toContainText(/is limiting requests \(HTTP 429/);
    await play.field('Model').fill('bad-stream');
    await play.send('once more');
    await expect(conversation).toContainText(/stream broke off or could not be read/);
    await expectNoSeriousAxeFindings(page, 'Playground after a conversation');

    // Export: settings without any key, the tools, the messages; Import it and Re-run its user messages.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export conversation', exact: true }).click()]);
    const file = await readFile(await download.path(), 'utf8');
    expect(file).not.toContain(KEY);
    expect(file).not.toContain('apiKeyRef');
    const exported = JSON.parse(file);
    expect(exported.conversations[0].messages[0]).toEqual({ role: 'user', text: 'hello loupe' });
    expect(exported.tools.map((t: { name: string }) => t.name)).toContain('echo');
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.getByLabel('Conversation file to import').setInputFiles({ name: 'conversation.json', mimeType: 'application/json', buffer: Buffer.from(file.replace(/"model": "bad-stream"/, '"model": "script-echo"')) });
    await expect(page.getByText(/Imported conversation\.json/)).toBeVisible();
    await play.checkbox('Approve every call').check();
    await page.getByRole('button', { name: 'Re-run', exact: true }).click();
    await expect(conversation).toContainText('The tool said: Echo: hello loupe');
    await expect(conversation).toContainText('The tool said: Echo: once more');
  });

  test('Anthropic (streamed): Deny goes back to the model as a refusal it answers; Compare runs a second model side by side', async ({ launch, loupe, page }) => {
    const anthropic = await llm('anthropic');
    const openai = await llm('openai');
    const { play } = await openPlayground(launch, loupe);
    await play.setUp({ provider: 'Anthropic', baseUrl: anthropic.baseUrl, key: KEY, model: 'script-echo' });
    await play.send('please echo this');
    const act = play.act('echo');
    await act.getByRole('button', { name: 'Deny', exact: true }).click();
    await expect(act).toContainText('Denied');
    await expect(play.conversation()).toContainText(/The tool said: (error: )?The user denied this call to "echo"/);

    // Compare: the same message to a second model; each shows the tools it chose.
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await play.checkbox('Compare').check();
    await play.checkbox('Approve every call').check();
    await play.setUp({ provider: 'OpenAI-compatible', baseUrl: openai.baseUrl, key: KEY, model: 'script-two-tools' }, true);
    await play.send('compare these');
    await expect(play.conversation()).toContainText('The tool said: Echo: compare these');
    await expect(play.conversation(true)).toContainText('Tools chosen: echo, get-sum');
    await expect(play.act('get-sum', true).getByRole('group', { name: 'Observe: get-sum' })).toContainText('5');
    await expect(play.conversation()).toContainText('Tools chosen: echo');
    await expectNoSeriousAxeFindings(page, 'Playground comparing two models');
  });

  test('Stop during a tool call cancels it (notifications/cancelled in History); a permission gate’s refusal reaches the model', async ({ launch, loupe, page }) => {
    const model = await llm('openai');
    const { app, play } = await openPlayground(launch, loupe);
    await play.setUp({ provider: 'OpenAI-compatible', baseUrl: model.baseUrl, key: KEY, model: 'script-slow-tool' });
    await play.checkbox('Approve every call').check();
    await play.send('take your time');
    const act = play.act('trigger-long-running-operation');
    await expect(act).toContainText('Running');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(act).toContainText('Cancelled');
    await expect(play.conversation()).toContainText('Stopped by the user.');
    await loupe.openTab('History');
    await expect(loupe.historyRows('notifications/cancelled').first()).toBeVisible();

    await setRules(page, app.wsUrl, [{ id: 'gate', name: 'no echo', match: { direction: 'to-server', method: 'tools/call', name: 'echo' }, action: { type: 'deny' } }]);
    await play.open();
    await play.field('Model').fill('script-echo');
    await play.send('echo me');
    const echo = play.act('echo');
    await expect(echo.getByRole('group', { name: 'Observe: echo' })).toContainText(/permission gate/i);
    await expect(play.conversation()).toContainText(/The tool said: .*permission gate/i);

    // A tool no server has, and arguments that fail the schema: not called, the model told why.
    await play.field('Model').fill('script-unknown-tool');
    await play.send('call something');
    await expect(play.act('no_such_tool')).toContainText('Not made');
    await expect(play.act('no_such_tool')).toContainText('There is no tool named "no_such_tool"');
    await play.field('Model').fill('script-bad-args');
    await play.send('bad arguments');
    await expect(play.act('echo').last()).toContainText(/do not match the tool's input schema/);
  });
});
