// Tasks (spec 2025-11-25, experimental): a tool with execution.taskSupport runs as a task; Loupe
// polls tasks/get, fetches tasks/result, cancels with tasks/cancel, and lists tasks in the Tasks tab.
import { ClientSide } from './pages/client-side.ts';
import { expect, test } from './support/test.ts';

const TOOL = 'simulate-research-query';

test.describe('tasks', () => {
  test('a required-task tool is marked, runs as a task to completion, and shows in the Tasks tab', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');

    await expect(loupe.toolEntry(TOOL)).toContainText('task required');
    await loupe.selectTool(TOOL);
    await expect(page.getByRole('switch', { name: 'Run as task' })).toBeChecked();
    await loupe.fillField('topic', 'tide pools');
    await loupe.runTool();

    const run = client.taskRun();
    await expect(run.getByText('working', { exact: true })).toBeVisible();
    // The Result region says the task is running, not "Run a tool to see its result here".
    const result = page.getByRole('region', { name: 'Result', exact: true });
    await expect(result).toContainText('The task is running (working)');
    await expect(result).not.toContainText('Run a tool');
    await expect(run.getByText('completed', { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(result).toContainText('The task ended (completed)');
    await expect(run.getByRole('region', { name: 'Task result' })).toContainText('# Research Report: tide pools');

    await client.openTasksTab();
    const task = client.tasks().getByRole('region', { name: /^Task / }).first();
    await expect(task).toContainText(TOOL);
    await expect(task.getByText('completed', { exact: true })).toBeVisible();
    await expect(task.getByRole('region', { name: 'Task result' })).toContainText('# Research Report: tide pools');

    await loupe.openTab('History');
    for (const method of ['tasks/get', 'tasks/result', 'tasks/list']) {
      await expect(loupe.historyRows(method).first(), `History shows ${method}`).toBeVisible();
    }
  });

  test('a task is cancelled', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');

    await client.runTool(TOOL, { topic: 'never mind' });
    const run = client.taskRun();
    await expect(run.getByText('working', { exact: true })).toBeVisible();
    await run.getByRole('button', { name: 'Cancel task' }).click();
    await expect(run.getByText('cancelled', { exact: true })).toBeVisible();

    await client.openTasksTab();
    const task = client.tasks().getByRole('region', { name: /^Task / }).first();
    await expect(task.getByText('cancelled', { exact: true })).toBeVisible();
    await expect(task.getByRole('button', { name: 'Cancel task' })).toHaveCount(0);
    // It stays cancelled (the server's own work goes on in the background, but the status never goes back).
    await task.getByRole('button', { name: 'Check status' }).click();
    await page.waitForTimeout(1_500);
    await expect(task.getByText('cancelled', { exact: true })).toBeVisible();
  });

  test('a required-task tool called without a task shows the error and retries as a task in one click', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');

    await loupe.selectTool(TOOL);
    await page.getByRole('switch', { name: 'Run as task' }).uncheck();
    await loupe.fillField('topic', 'retry me');
    await loupe.runTool();
    await expect(loupe.result()).toContainText("requires task augmentation (taskSupport: 'required')");

    await page.getByRole('button', { name: 'Retry as task' }).click();
    await expect(page.getByRole('button', { name: 'Retry as task' })).toHaveCount(0);
    await expect(client.taskRun().getByText('completed', { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(client.taskRun()).toContainText('# Research Report: retry me');
    await expect(page.getByRole('switch', { name: 'Run as task' })).toBeChecked();
  });

  test('a task that needs input asks through an elicitation, then completes', async ({ launch, loupe, page }) => {
    const client = new ClientSide(page, loupe);
    await loupe.open((await launch()).url);
    await loupe.waitForStatus('Connected');

    await loupe.selectTool(TOOL);
    await loupe.fillField('topic', 'python');
    await page.getByRole('checkbox', { name: 'ambiguous' }).check();
    await loupe.runTool();

    const form = client.elicitationRequest();
    await expect(form).toContainText('could have multiple interpretations', { timeout: 20_000 });
    await expect(client.taskRun().getByText('input_required', { exact: true })).toBeVisible();
    await form.getByRole('combobox', { name: /Clarification/ }).selectOption({ label: 'Python snake species' });
    await form.getByRole('button', { name: 'Accept' }).click();

    await expect(client.taskRun().getByText('completed', { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(client.taskRun()).toContainText('# Research Report: python (snake)');
  });
});
