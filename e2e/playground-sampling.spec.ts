// A server's sampling request answered by a model (issue 15, item 5), against server-everything's
// trigger-sampling-request and the scripted OpenAI-compatible server of e2e/fixtures (real HTTP on
// 127.0.0.1): the Playground asks the provider nothing by itself (List models does); Ask model
// shows a provider's refusal in words, then puts the model's answer into the reply editor, where
// the person edits it and sends it; the tool's result carries the edited text; the exchange is a
// provider row of the History with the key masked, and the key is nowhere in the page.
import { ClientSide } from './pages/client-side.ts';
import { PlaygroundPage } from './pages/playground-page.ts';
import { expectNoSeriousAxeFindings } from './support/axe.ts';
import { spawnProc, stopProc, waitForOutput, type Proc } from './support/processes.ts';
import { EVERYTHING } from './support/servers.ts';
import { expect, test } from './support/test.ts';

const KEY = 'test-key';

let llm: Proc | undefined;
test.afterEach(async () => {
  if (llm) await stopProc(llm);
  llm = undefined;
});

/** The scripted server's log of what reached it (the key masked there). */
async function requestsSeen(origin: string): Promise<{ method: string; path?: string; url?: string }[]> {
  return (await fetch(`${origin}/debug/requests`)).json();
}

test('sampling answered by the Playground’s model: asked, edited, sent; the exchange in History without the key', async ({ launch, loupe, page }) => {
  llm = spawnProc(process.execPath, ['e2e/fixtures/llm-openai.mjs']);
  const origin = (await waitForOutput(llm, llm.stdout, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 10_000, 'llm-openai'))[1];
  const app = await launch(['node', EVERYTHING, 'stdio']);
  await loupe.open(app.url);
  await loupe.waitForStatus('Connected');
  const client = new ClientSide(page, loupe);
  const play = new PlaygroundPage(loupe);
  const settings = page.getByRole('region', { name: 'Playground settings' });

  // Opening the tab and filling it in asks the provider nothing; List models does.
  await play.open();
  await play.setUp({ provider: 'OpenAI-compatible', baseUrl: `${origin}/v1`, key: KEY, model: 'fail-429' });
  expect(await requestsSeen(origin)).toEqual([]);
  await settings.getByRole('button', { name: 'List models', exact: true }).click();
  await expect(settings.getByRole('combobox', { name: 'Models offered' })).toBeVisible();
  expect((await requestsSeen(origin)).length).toBe(1);

  await loupe.openTab('Tools');
  await client.runTool('trigger-sampling-request', { prompt: 'sample me' });
  await client.expectPending(1);
  const request = client.samplingRequest();
  const ask = request.getByRole('group', { name: 'Ask a model' });
  await expect(ask).toContainText(`Uses the Playground’s OpenAI-compatible endpoint ${origin}/v1 with the key you typed; model fail-429`);

  // A refusal of the provider, in words, in the pending item; the request still waits.
  await ask.getByRole('button', { name: 'Ask model', exact: true }).click();
  await expect(ask).toContainText(/is limiting requests \(HTTP 429/);
  await client.expectPending(1);

  // The way to the settings; another model; asked again.
  await ask.getByRole('button', { name: 'Change in the Playground' }).click();
  await expect(page.getByRole('tab', { name: 'Playground', exact: true })).toHaveAttribute('aria-selected', 'true');
  await settings.getByRole('textbox', { name: 'Model', exact: true }).fill('script-text');
  await ask.getByRole('button', { name: 'Ask model', exact: true }).click();
  await expect(ask).toContainText('The request names no model, so the Playground’s model script-text answers.');
  await expect(ask).toContainText('temperature 0.7 is not passed on');
  await expect(ask).toContainText('The model’s answer is in the reply below');
  const replyText = request.getByLabel('Reply text');
  await expect(replyText).toHaveValue('You said: Resource trigger-sampling-request context: sample me');
  await expect(request.getByLabel('Model', { exact: true })).toHaveValue('script-text');
  await expect(request.getByLabel('Stop reason', { exact: true })).toHaveValue('endTurn');
  // What the provider was sent: the system prompt, the message, max_tokens.
  const chat = (await requestsSeen(origin)).filter((r) => r.method === 'POST').at(-1) as unknown as { body: { model: string; max_tokens: number; messages: { role: string; content: string }[] } };
  expect(chat.body).toMatchObject({ model: 'script-text', max_tokens: 100, messages: [{ role: 'system', content: 'You are a helpful test server.' }, { role: 'user', content: 'Resource trigger-sampling-request context: sample me' }] });
  await expectNoSeriousAxeFindings(page, 'a sampling request answered by a model');

  // Nothing went to the server yet: the person edits, then sends.
  await replyText.fill('You said: sample me (edited by a person)');
  await request.getByRole('button', { name: 'Send reply' }).click();
  await client.expectPending(0);
  await loupe.openTab('Tools');
  await expect(loupe.result()).toContainText('edited by a person');
  await expect(loupe.result()).toContainText('"model": "script-text"');

  // The exchange as a provider row: URL, status, headers with the key masked, both bodies.
  await loupe.openTab('History');
  const row = loupe.historyRows('OpenAI-compatible call to script-text → 200').first();
  await row.click();
  const detail = loupe.history();
  await expect(detail.getByRole('region', { name: 'Request headers' })).toContainText('authorizationBearer •••• (8 chars, secret)');
  await expect(detail.getByRole('region', { name: 'Request body' })).toContainText('You are a helpful test server.');
  await expect(detail.getByRole('region', { name: 'Response body' })).toContainText('You said: Resource trigger-sampling-request context: sample me');
  await expect(detail).toContainText(`${origin}/v1/chat/completions`);
  expect(await page.content()).not.toContain(KEY);
  await expectNoSeriousAxeFindings(page, 'a provider row of the History');
});
