// Sampling: the server asks for an LLM completion; the user reads the request as a conversation and
// writes the reply by hand (text, image, tool use), rejects it, or uses a saved preset.
import { ClientSide } from './pages/client-side.ts';
import { expect, test } from './support/test.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

test.describe('sampling/createMessage', () => {
  test('is shown as a conversation and answered by hand', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');

    await client.runTool('trigger-sampling-request', { prompt: 'a haiku about tests' });
    await client.expectPending(1);
    const request = client.samplingRequest();
    await expect(request).toContainText('Resource trigger-sampling-request context: a haiku about tests');
    await expect(request).toContainText('You are a helpful test server.');
    await expect(request).toContainText(/maxTokens\s*100/);
    await expect(request).toContainText(/temperature\s*0\.7/);
    await expect(request.getByTestId('request-age')).toHaveText(/^\d+ s$/);

    await client.reply('Green checks bloom / in the quiet CI night', 'hand-model-1');
    await expect(loupe.result()).toContainText('Green checks bloom');
    await expect(loupe.result()).toContainText('"model": "hand-model-1"');
    await expect(loupe.result()).toContainText('"stopReason": "endTurn"');
    await client.expectPending(0);
    await expect(await client.recentlyFinished()).toContainText(/sampling\/createMessage.*answered after \d+ s/);
  });

  test('a rejection reaches the server as an error, and an image reply as an image', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');

    await client.runTool('trigger-sampling-request', { prompt: 'no thanks' });
    await client.samplingRequest().getByRole('button', { name: 'Reject' }).click();
    await expect(loupe.result()).toContainText('User rejected sampling request');

    await loupe.runTool();
    const request = client.samplingRequest();
    await request.getByLabel('Reply type').selectOption({ label: 'Image' });
    await request.getByLabel('Image data (base64)').fill(PNG);
    await request.getByRole('button', { name: 'Send reply' }).click();
    await expect(loupe.result()).toContainText('"type": "image"');
    await expect(loupe.result()).toContainText('"mimeType": "image/png"');
  });

  test('a saved preset fills the reply', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');

    await client.runTool('trigger-sampling-request', { prompt: 'first' });
    const first = client.samplingRequest();
    await first.getByLabel('Reply text').fill('Canned answer from a preset');
    await first.getByLabel('Stop reason').fill('maxTokens');
    await first.getByLabel('Preset name').fill('Canned');
    await first.getByRole('button', { name: 'Save preset' }).click();
    await first.getByRole('button', { name: 'Send reply' }).click();
    await expect(loupe.result()).toContainText('Canned answer from a preset');

    // A new request starts from the defaults; the preset brings the saved reply back (also after a reload).
    await page.reload();
    await loupe.waitForStatus('Connected');
    await client.runTool('trigger-sampling-request', { prompt: 'second' });
    const second = client.samplingRequest();
    await expect(second.getByLabel('Reply text')).toHaveValue('');
    await second.getByLabel('Preset', { exact: true }).selectOption({ label: 'Canned' });
    await expect(second.getByLabel('Reply text')).toHaveValue('Canned answer from a preset');
    await second.getByRole('button', { name: 'Send reply' }).click();
    await expect(loupe.result()).toContainText('"stopReason": "maxTokens"');
  });

  test('a request that offers tools can be answered with a tool use', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch(['node', 'e2e/fixtures/client-requests.mjs'])).url);
    await loupe.waitForStatus('Connected');

    await client.runTool('sample-with-tools');
    const request = client.samplingRequest();
    await expect(request).toContainText('Tools offered (1)');
    await expect(request).toContainText('get_weather');
    await expect(request).toContainText(/toolChoice\s*auto/);
    await request.getByLabel('Reply type').selectOption({ label: 'Tool use' });
    await expect(request.getByLabel('Stop reason')).toHaveValue('toolUse');
    await request.getByLabel('Tool input').fill('{"city": "Oslo"}');
    await request.getByRole('button', { name: 'Send reply' }).click();
    // The fixture echoes the client's answer as JSON text (the result view may pretty-print it).
    await expect(loupe.result()).toContainText(/"type":\s*"tool_use"/);
    await expect(loupe.result()).toContainText(/"name":\s*"get_weather"/);
    await expect(loupe.result()).toContainText(/"input":\s*\{\s*"city":\s*"Oslo"\s*\}/);
  });

  test('a task-augmented request is run by Loupe as a task that the server polls', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');

    await client.runTool('trigger-sampling-request-async', { prompt: 'later' });
    const request = client.samplingRequest();
    await expect(request).toContainText('Loupe runs it as a task');
    await client.reply('answered as a task');
    await expect(loupe.result()).toContainText('[COMPLETED] Async sampling completed!', { timeout: 30_000 });
    await expect(loupe.result()).toContainText('"text": "answered as a task"');
  });
});
