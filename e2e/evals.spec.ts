// The Playground's Evals (issue 27) in real Chromium: two cases written in the page, run with two
// models of the Playground (the scripted OpenAI-format and Anthropic-format servers of e2e/fixtures,
// real HTTP on 127.0.0.1) against server-everything's tools. One case passes with both; the other
// fails with both, and the page says why (a forbidden tool called and refused, wrong arguments, an
// answer without the number) and shows the failed run's transcript. The cases are exported as an
// eval file, kept in the workspace across a reload, and axe finds nothing serious, light or dark.
import { readFile } from 'node:fs/promises';
import { EvalsPage } from './pages/evals-page.ts';
import { PlaygroundPage } from './pages/playground-page.ts';
import { expectNoSeriousAxeFindings } from './support/axe.ts';
import { spawnProc, stopProc, waitForOutput, type Proc } from './support/processes.ts';
import { EVERYTHING } from './support/servers.ts';
import { expect, test } from './support/test.ts';

const KEY = 'test-key';
const llms: Proc[] = [];

/** A scripted model server on a free port; its base URL. */
async function startLlm(kind: 'openai' | 'anthropic'): Promise<string> {
  const proc = spawnProc(process.execPath, [`e2e/fixtures/llm-${kind}.mjs`]);
  llms.push(proc);
  const match = await waitForOutput(proc, proc.stdout, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 10_000, `llm-${kind}`);
  return `${match[1]}/v1`;
}
test.afterEach(async () => {
  await Promise.all(llms.splice(0).map((proc) => stopProc(proc)));
});

const PASSING = {
  name: 'echo the greeting',
  prompt: 'Please say hello loupe',
  tools: [{ name: 'echo', arguments: '{"message": {"contains": "hello loupe"}}' }],
  answerContains: 'Echo: Please say hello loupe',
};
// The fixtures' script-two-tools calls echo {message: "first"} and get-sum {a: 2, b: 3}, then quotes the results.
const FAILING = { name: 'add four and five', prompt: 'script-two-tools: what is 4 + 5?', tools: [{ name: 'get-sum', arguments: '{"a": 4, "b": {"type": "number"}}' }], forbid: 'echo', answerContains: '9' };

test('Evals: a passing and a failing case with two models, the failure explained on screen, exported and kept in the workspace', async ({ launch, loupe, page }) => {
  const [openai, anthropic] = await Promise.all([startLlm('openai'), startLlm('anthropic')]);
  const app = await launch(['node', EVERYTHING, 'stdio']);
  await loupe.open(app.url);
  await loupe.waitForStatus('Connected');
  const play = new PlaygroundPage(loupe);
  await play.open();
  // The OpenAI fixture's "-priced" model reports each call's cost; the Anthropic format reports none.
  await play.setUp({ provider: 'OpenAI-compatible', baseUrl: openai, key: KEY, model: 'eval-model-priced' });
  await play.checkbox('Compare').check();
  await play.setUp({ provider: 'Anthropic', baseUrl: anthropic, key: KEY, model: 'eval-model' }, true);

  const evals = new EvalsPage(play);
  await evals.open();
  const first = `openai-compatible:${openai}#eval-model-priced`;
  const second = `anthropic:${anthropic}#eval-model`;
  await expect(page.getByRole('checkbox', { name: first, exact: true })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: second, exact: true })).toBeChecked();
  await expect(evals.panel()).toContainText('Add a case first.');
  await evals.addCase(1, PASSING);
  await evals.addCase(2, FAILING);

  await evals.button('Run evals').click();
  await expect(evals.status()).toHaveText('4 runs: 2 passed, 2 failed.', { timeout: 30_000 });
  await expect(evals.cell(PASSING.name, 0)).toContainText('1/1 (100%) passed');
  await expect(evals.cell(PASSING.name, 0)).toContainText(/\d+ in · \d+ out tokens · (\d+ ms|[\d.]+ s) a run · \$[\d.e-]+ \(provider\)/);
  await expect(evals.cell(PASSING.name, 1)).toContainText('1/1 (100%) passed');
  await expect(evals.cell(PASSING.name, 1)).toContainText('—');
  await expect(evals.cell(FAILING.name, 0)).toContainText('0/1 (0%) passed');
  await expect(evals.cell(FAILING.name, 1)).toContainText('0/1 (0%) passed');

  // The failure, explained on screen in words, for each model.
  for (const model of [first, second]) {
    const failed = evals.failedRun(`${FAILING.name} × ${model}, run 1`);
    await expect(failed).toContainText('forbidden tool "echo" called (refused, not run)');
    await expect(failed).toContainText('"get-sum" called with arguments.a = 2, expected 4');
    await expect(failed).toContainText('answer lacks "9"');
  }
  await expect(page.getByRole('region', { name: 'Failed runs', exact: true }).getByRole('listitem', { name: new RegExp(`^${PASSING.name}`) })).toHaveCount(0);

  // Its transcript: the refused call, never made, and the one that was.
  const name = `${FAILING.name} × ${first}, run 1`;
  await evals.button(`Show transcript: ${name}`).click();
  const transcript = page.getByRole('region', { name: `Transcript: ${name}`, exact: true });
  await expect(transcript.getByRole('listitem', { name: 'Act: echo', exact: true })).toContainText('Denied');
  await expect(transcript.getByRole('listitem', { name: 'Act: echo', exact: true })).toContainText('this eval forbids it');
  await expect(transcript.getByRole('listitem', { name: 'Act: get-sum', exact: true })).toContainText('Done: every call approved');
  await expect(transcript.getByRole('listitem', { name: 'Act: get-sum', exact: true })).toContainText('The sum of 2 and 3 is 5.');
  await expectNoSeriousAxeFindings(page, 'the Playground’s Evals with results and a transcript');
  // Kept as test artifacts (dark, as axe left it): what the results look like.
  await evals.results().screenshot({ path: test.info().outputPath('evals-results-dark.png') });
  await evals.failedRun(name).screenshot({ path: test.info().outputPath('evals-failed-run-dark.png') });

  // Export: the cases as an eval file that --eval reads.
  const [download] = await Promise.all([page.waitForEvent('download'), evals.button('Export eval file').click()]);
  const exported = JSON.parse(await readFile((await download.path())!, 'utf8')) as { cases: { name: string; expect: Record<string, unknown> }[] };
  expect(exported.cases.map((c) => c.name)).toEqual([PASSING.name, FAILING.name]);
  expect(exported.cases[1].expect).toEqual({ tools: [{ name: 'get-sum', arguments: { a: 4, b: { type: 'number' } } }], forbid: ['echo'], answerContains: ['9'] });

  // Kept in the workspace: a reload finds the cases again; the key never reached the page's storage.
  await evals.button('Save evals in workspace').click();
  await expect(evals.panel()).toContainText('Kept in the workspace');
  await page.reload();
  await loupe.waitForStatus('Connected');
  await play.open();
  await evals.open();
  await expect(evals.field('Case 2 prompt')).toHaveValue(FAILING.prompt);
  await expect(evals.field('Arguments of case 2 expected tool 1')).toHaveValue('{\n  "a": 4,\n  "b": {\n    "type": "number"\n  }\n}');
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(stored).not.toContain(KEY);
});

test('Evals: a case the page cannot read is a sentence, and nothing runs', async ({ launch, loupe, page }) => {
  const openai = await startLlm('openai');
  const app = await launch(['node', EVERYTHING, 'stdio']);
  await loupe.open(app.url);
  await loupe.waitForStatus('Connected');
  const play = new PlaygroundPage(loupe);
  await play.open();
  await play.setUp({ provider: 'OpenAI-compatible', baseUrl: openai, key: KEY, model: 'eval-model' });
  const evals = new EvalsPage(play);
  await evals.open();
  await evals.addCase(1, { name: 'broken', prompt: 'hi', tools: [{ name: 'echo', arguments: '{"message": ' }] });
  await evals.button('Run evals').click();
  await expect(evals.panel()).toContainText(/Case 1, expected tool 1: the arguments are not JSON/);
  await expect(evals.results()).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Chat', exact: true })).toHaveAttribute('aria-selected', 'false');
  await page.getByRole('tab', { name: 'Evals', exact: true }).press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'Chat', exact: true })).toBeFocused();
  await expect(play.field('Message')).toBeVisible();
});
