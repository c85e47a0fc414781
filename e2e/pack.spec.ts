// The package as users get it: `npm pack`, then `npx <tarball>` in an empty folder. The built UI
// and the bundled server must be inside; dependencies come from the registry (or npm's cache).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from './support/test.ts';
import { ROOT } from './support/processes.ts';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

test.describe('packaging', () => {
  test.setTimeout(180_000);
  const dirs: string[] = [];
  test.afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  test('npx <packed tarball> serves the UI and connects to the bundled server', async ({ launch, loupe }) => {
    const packDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-pack-'));
    const runDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-npx-'));
    dirs.push(packDir, runDir);

    // The build already ran (npm test builds first); --ignore-scripts skips a second one.
    const { stdout } = await run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], { cwd: ROOT, maxBuffer: 64 << 20 });
    const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed.files.map((f) => f.path);
    expect(files).toContain('dist/proxy/cli.js');
    expect(files).toContain('out/index.html');
    expect(files.filter((f) => f.endsWith('.test.js') || f.startsWith('e2e/')), 'no tests in the package').toEqual([]);

    const tarball = join(packDir, packed.filename);
    const app = await launch([], { command: [npx, '--yes', tarball], cwd: runDir, startTimeoutMs: 150_000 });

    const res = await fetch(`${app.origin}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type') ?? '').toContain('text/html');
    const html = await res.text();
    expect(html).toMatch(/<html/i);
    expect(html, 'the exported Next.js app').toContain('/_next/');

    await loupe.open(app.url);
    await loupe.waitForStatus('Connected', 30_000);
    await expect(loupe.toolButton('echo')).toBeVisible();
    // The `launch` fixture then sends SIGTERM and expects exit 0 with no process left behind.
  });
});
