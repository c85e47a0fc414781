// Loupe opens the browser through a local redirect file, so that the page's token is on no command
// line (issue 21): the opener (here a `$BROWSER` stub that records what it was given) gets a
// file:// URL, and a browser that opens it lands on the page, connected. Checks that Loupe's Host,
// Origin and CSP checks let a navigation that comes from a file:// page through.
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/test.ts';
import { pollUntil } from './support/processes.ts';

test('the redirect file the opener gets lands on the page, connected', async ({ launch, loupe, page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-open-'));
  const record = join(dir, 'opener.txt');
  const stub = join(dir, 'browser.sh');
  writeFileSync(stub, `#!/bin/sh\nprintf '%s\\n' "$@" > "${record}.tmp" && mv "${record}.tmp" "${record}"\n`);
  chmodSync(stub, 0o755);
  // Without --no-open: Loupe runs the opener.
  const app = await launch([], { options: ['--port', '0'], env: { ...process.env, BROWSER: stub, XDG_RUNTIME_DIR: join(dir, 'runtime') } });
  await pollUntil(() => existsSync(record), 10_000, 50);
  const [fileUrl, ...rest] = readFileSync(record, 'utf8').trim().split('\n');
  expect(rest).toEqual([]);
  expect(fileUrl).toMatch(/^file:\/\/.*\/open-\d+\.html$/);
  expect(fileUrl).not.toContain(app.token);
  expect(statSync(fileURLToPath(fileUrl)).mode & 0o777).toBe(0o600);

  await page.goto(fileUrl);
  await page.waitForURL(app.url, { timeout: 30_000 });
  await loupe.waitForStatus('Connected');
});
