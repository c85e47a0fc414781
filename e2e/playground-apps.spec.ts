// MCP Apps in the Playground (issue 24, item 4), against the apps fixture (e2e/fixtures/apps-server.mjs)
// and the scripted OpenAI-compatible server (its script-app-view: the model calls counter and
// messenger): each call's view renders in the conversation under the call's Observe and works
// (Add one); the messenger's ui/message waits beside it, and Approve waits while the model is
// answering; approved, the text is the conversation's next user message and the model answers it;
// denied, nothing reaches the model and the view hears so; the Tools tab does not show the
// Playground's views; Clear closes them (ui/resource-teardown in the History).
import type { Locator } from '@playwright/test';
import { AppsPage, APPS_SERVER } from './pages/apps-page.ts';
import { HistoryPage } from './pages/history-page.ts';
import { PlaygroundPage } from './pages/playground-page.ts';
import { expectNoSeriousAxeFindings } from './support/axe.ts';
import { spawnProc, stopProc, waitForOutput, type Proc } from './support/processes.ts';
import { expect, test } from './support/test.ts';

const KEY = 'test-key';
const MESSAGE = 'Hello from the view';

let llm: Proc | undefined;
test.afterEach(async () => {
  if (llm) await stopProc(llm);
  llm = undefined;
});

/** The scripted model server on a free port; its origin. */
async function startLlm(): Promise<string> {
  llm = spawnProc(process.execPath, ['e2e/fixtures/llm-openai.mjs']);
  return (await waitForOutput(llm, llm.stdout, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 10_000, 'llm-openai'))[1];
}

/** How many times the model was asked (what reached the scripted server). */
async function modelCalls(origin: string): Promise<number> {
  const seen = (await (await fetch(`${origin}/debug/requests`)).json()) as { method: string; path: string }[];
  return seen.filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions').length;
}

/** How many user messages of the conversation say `text` ("You: …"). */
async function userMessages(conversation: Locator, text: string): Promise<number> {
  return ((await conversation.innerText()).match(new RegExp(`You: ${text}`, 'g')) ?? []).length;
}

test("a model's call of a tool with a view renders the view in the conversation; the view's message goes in once approved, not when denied", async ({ launch, loupe, page }) => {
  const origin = await startLlm();
  const app = await launch(APPS_SERVER);
  await loupe.open(app.url);
  await loupe.waitForStatus('Connected');
  const play = new PlaygroundPage(loupe);
  const apps = new AppsPage(loupe);
  const conversation = play.conversation();
  await play.open();
  await play.setUp({ provider: 'OpenAI-compatible', baseUrl: `${origin}/v1`, key: KEY, model: 'script-app-view' });
  await play.checkbox('Approve every call').check();
  await play.send('show me the views');

  // Each call's view, under its Observe, in the conversation; the counter's works through the host.
  const counter = play.act('counter');
  await expect(counter.getByRole('group', { name: 'Observe: counter' })).toContainText('Count is 5');
  await expect(counter.getByRole('region', { name: 'View: counter', exact: true })).toBeVisible();
  await apps.waitReady('counter');
  await expect(apps.output('counter', 'tool-input')).toHaveText('{"start":5}');
  await expect(apps.output('counter', 'tool-result')).toHaveText('Count is 5');
  await apps.viewButton('counter', 'Add one').click();
  await expect(apps.output('counter', 'count')).toHaveText('6');
  await expect(play.act('messenger').getByRole('region', { name: 'View: messenger', exact: true })).toBeVisible();
  await apps.waitReady('messenger');
  await expect(conversation).toContainText('The tool said: Count is 5');
  await expectNoSeriousAxeFindings(page, 'the Playground with two views in the conversation');

  // While the model is answering, the view's message waits: Approve cannot put it in yet.
  await play.field('Model').fill('script-slow-reply');
  await play.send('take your time');
  await apps.viewButton('messenger', 'Send message').click();
  const asked = apps.ask('messenger', MESSAGE);
  const approve = asked.getByRole('button', { name: 'Approve', exact: true });
  await expect(asked).toContainText('waiting for your answer');
  await expect(asked).toContainText('The conversation is busy');
  await expect(approve).toBeDisabled();
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(conversation).toContainText('Stopped by the user.');

  // Approved: the view hears it was sent, the text is the next user message, and the model answers it.
  await play.field('Model').fill('script-app-view');
  await expect(approve).toBeEnabled();
  const asks = await modelCalls(origin);
  await approve.click();
  await expect(apps.output('messenger', 'message-answer')).toHaveText('sent');
  await expect(asked).toContainText('approved');
  await expect(conversation).toContainText(`The view said: ${MESSAGE}`);
  expect(await userMessages(conversation, MESSAGE)).toBe(1);
  expect(await modelCalls(origin)).toBe(asks + 1);

  // Denied: the view hears so, and nothing goes into the conversation or to the model.
  await apps.viewButton('messenger', 'Send message').click();
  const second = apps.ask('messenger', MESSAGE).filter({ hasText: 'waiting for your answer' });
  await second.getByRole('button', { name: 'Deny', exact: true }).click();
  await expect(apps.output('messenger', 'message-answer')).toHaveText(/^refused: .*denied/);
  await expect(apps.ask('messenger', MESSAGE).filter({ hasText: 'denied' })).toHaveCount(1);
  expect(await userMessages(conversation, MESSAGE)).toBe(1);
  await expect(conversation).not.toContainText('Waiting for the model');
  expect(await modelCalls(origin)).toBe(asks + 1);

  // The Tools tab shows none of the Playground's views; back in the Playground, they load again.
  await loupe.openTab('Tools');
  await expect(page.getByRole('region', { name: /^View: / })).toHaveCount(0);
  await play.open();
  await apps.waitReady('counter');
  await expect(apps.output('counter', 'tool-input')).toHaveText('{"start":5}');

  // Clear closes the conversation's views: the proxy tears each down.
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(page.getByRole('region', { name: /^View: / })).toHaveCount(0);
  const history = new HistoryPage(loupe);
  await history.open();
  await history.search().fill('ui/resource-teardown');
  await expect(history.row(/host→view/).filter({ hasText: 'view v1' })).not.toHaveCount(0);
  await expect(history.row(/host→view/).filter({ hasText: 'view v2' })).not.toHaveCount(0);
});
