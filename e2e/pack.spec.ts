// The package as users get it: `npm pack`, then `npx ./mcp-loupe-<version>.tgz` in a folder of
// its own. The built UI and the bundled server must be inside; dependencies come from the
// registry (or npm's cache), hence the long timeout.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from './support/test.ts';
import { ROOT, commandOf, descendants, isAlive, pollUntil, sleep } from './support/processes.ts';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

test.describe('packaging', () => {
  test.setTimeout(180_000);
  let dir = '';
  test.beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-pack-'));
  });
  test.afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('npx ./<packed tarball> serves the UI, connects to the bundled server, and exits 0', async ({ launch, loupe }) => {
    // The build already ran (npm test builds first); --ignore-scripts skips a second one.
    const { stdout } = await run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, maxBuffer: 64 << 20 });
    const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed.files.map((f) => f.path);
    expect(files).toContain('dist/proxy/cli.js');
    expect(files).toContain('out/index.html');
    expect(files.filter((f) => /\.(test|spec)\.[jt]s$/.test(f) || f.startsWith('e2e/')), 'no tests in the package').toEqual([]);

    // `group`: npx dies of SIGTERM without passing it on, so teardown signals the whole group.
    const app = await launch([], { command: [npx, '--yes', `./${packed.filename}`], cwd: dir, group: true, startTimeoutMs: 150_000 });

    const res = await fetch(`${app.origin}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type') ?? '').toContain('text/html');
    const html = await res.text();
    expect(html).toMatch(/<html/i);
    expect(html, 'the exported Next.js app').toContain('/_next/');

    await loupe.open(app.url);
    await loupe.waitForStatus('Connected', 30_000);
    await expect(loupe.toolButton('echo')).toBeVisible();

    // Stop Loupe itself (npx → sh → node …/mcp-loupe): npm then exits with Loupe's own code.
    const tree = descendants(app.pid);
    // `node [node flags] …/mcp-loupe …` (the bin's shebang passes V8 flags).
    const cli = tree.find((pid) => /\bnode\b(\s+-\S+)*\s+\S*mcp-loupe\b/.test(commandOf(pid)));
    expect(cli, `the Loupe process under npx: ${tree.map((p) => `${p} ${commandOf(p)}`).join(' | ')}`).toBeDefined();
    process.kill(cli!, 'SIGTERM');
    const exit = await Promise.race([app.proc.exited, sleep(15_000).then(() => null)]);
    expect(exit, `npx should end when Loupe does\n${app.output()}`).toEqual({ code: 0, signal: null });
    expect(await pollUntil(() => tree.every((pid) => !isAlive(pid)), 2_000), `left behind: ${tree.filter(isAlive).map(commandOf).join(' | ')}`).toBe(true);
  });
});
