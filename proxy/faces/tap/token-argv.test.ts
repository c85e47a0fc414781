/**
 * Integration (issue 21, item 3): Loupe's token is on no command line another user can read. Each
 * check reads /proc/PID/cmdline from a second process (`cat`), and, when this runs as root, as a
 * second local user too (`nobody`, through setpriv): of Loupe's browser opener (a `$BROWSER` stub
 * that records what it was given), of Loupe itself, and of a tap attached with the token in its
 * environment. `--attach` with a token in its URL is refused; the state file and MCP_LOUPE_TOKEN
 * both attach. Runs the BUILT cli (a test needs a current build).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { processAlive } from '../../system/process-group.ts';
import { writeRuntimeState } from '../../system/runtime-state.ts';
import { runBuiltCli, stopChild } from '../../testing/children.ts';
import { LoupeHarness } from '../../testing/harness.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'dist', 'proxy', 'cli.js');
const EVERYTHING = [process.execPath, join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];

const harness = new LoupeHarness();
const started: ChildProcess[] = [];
const clients: Client[] = [];
const strays: number[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await Promise.all(started.splice(0).map(stopChild));
  for (const pid of strays.splice(0)) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  await harness.closeAll();
});

const temp = () => mkdtempSync(join(tmpdir(), 'loupe-token-argv-'));

/** A process's command line as another process reads it (`cat`), words joined by spaces. */
function cmdlineSeenBy(pid: number, asUser?: number): string {
  const command = asUser === undefined ? ['cat', [`/proc/${pid}/cmdline`]] : ['setpriv', [`--reuid=${asUser}`, `--regid=${asUser}`, '--clear-groups', 'cat', `/proc/${pid}/cmdline`]];
  const read = spawnSync(command[0] as string, command[1] as string[], { encoding: 'utf8' });
  expect(read.status, read.stderr).toBe(0);
  return read.stdout.split('\0').join(' ');
}

/** Root, with setpriv: the same read as `nobody`, a real second local user. */
const SECOND_USER = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0 ? 65534 : undefined;

/** What every other user of this machine can read of `pid`'s command line holds no `token`. */
function expectNoTokenInCmdline(pid: number, token: string, what: string): string {
  const seen = cmdlineSeenBy(pid);
  expect(seen.length, `${what}'s command line`).toBeGreaterThan(0);
  expect(seen, `${what}'s command line`).not.toContain(token);
  if (SECOND_USER !== undefined) expect(cmdlineSeenBy(pid, SECOND_USER), `${what}'s command line, read as nobody`).toBe(seen);
  return seen;
}

async function until<T>(check: () => T | undefined | false, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the browser opener', () => {
  it('gets a 0600 redirect file, not the tokened URL, and the file goes with Loupe', async () => {
    const dir = temp();
    const runtime = join(dir, 'runtime');
    const record = join(dir, 'opener.txt');
    // The opener stub: records its pid and arguments, then stays a while, as a browser launcher does.
    const stub = join(dir, 'browser.sh');
    writeFileSync(stub, `#!/bin/sh\nprintf '%s\\n' "$$" "$@" > "${record}.tmp" && mv "${record}.tmp" "${record}"\nsleep 10\n`);
    chmodSync(stub, 0o755);
    const loupe = spawn(process.execPath, [CLI, '--port', '0', ...EVERYTHING], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BROWSER: stub, XDG_RUNTIME_DIR: runtime } });
    started.push(loupe);
    let stdout = '';
    loupe.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    // The terminal still gets the tokened URL: it is the user's own.
    const [url, token] = await until(() => /(http:\/\/127\.0\.0\.1:\d+\/\?token=([A-Za-z0-9_-]+))/.exec(stdout)?.slice(1), 'the printed URL');
    const [pidLine, ...args] = (await until(() => existsSync(record) && readFileSync(record, 'utf8'), 'the opener to run')).trim().split('\n');
    const opener = Number(pidLine);
    strays.push(opener);

    const seen = expectNoTokenInCmdline(opener, token, 'the opener');
    const file = join(runtime, 'mcp-loupe', `open-${loupe.pid}.html`);
    expect(args).toEqual([`file://${file}`]);
    expect(seen).toContain(`file://${file}`);
    expectNoTokenInCmdline(loupe.pid!, token, 'Loupe');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8')).toContain(`window.location.replace(${JSON.stringify(url)})`);
    expect(fileURLToPath(args[0])).toBe(file);

    await stopChild(loupe);
    expect(existsSync(file)).toBe(false);
  });
});

describe('mcp-loupe --tap --attach', () => {
  async function tap(args: string[], env: Record<string, string> = {}) {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, '--tap', ...args, '--', ...EVERYTHING], stderr: 'pipe', env: { PATH: process.env.PATH ?? '', ...env }, cwd: ROOT });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'token-test-host', version: '1.0.0' }, { capabilities: {} });
    clients.push(client);
    await client.connect(transport);
    const echoed = await client.callTool({ name: 'echo', arguments: { message: 'tapped' } });
    expect(JSON.stringify(echoed.content)).toContain('Echo: tapped');
    return { client, pid: transport.pid!, stderr: () => stderr };
  }

  it('refuses a URL with the token (exit 2, in words), and starts nothing', async () => {
    const marker = join(temp(), 'started');
    const run = await runBuiltCli(['--tap', '--attach', 'http://127.0.0.1:6280/?token=SECRET123', '--', 'sh', '-c', `touch ${marker}`], started);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "mcp-loupe: --attach was given Loupe's token in its URL, and a command line is readable by every user of this machine (ps, /proc/PID/cmdline): that token has leaked, so stop that Loupe and start it again for a new one. Then give --attach only the address (http://127.0.0.1:PORT/ or the port): the tap reads the token from Loupe's state file (written for your user only) or from the environment variable MCP_LOUPE_TOKEN.",
    );
    expect(existsSync(marker)).toBe(false);
  });

  it('takes the token from MCP_LOUPE_TOKEN: the session shows, and no command line holds the token, nor the server’s environment', async () => {
    const { loupe, client: page } = await harness.start({});
    const { pid } = await tap(['--attach', String(loupe.port)], { MCP_LOUPE_TOKEN: loupe.token });
    const session = await page.until(() => [...page.sessions.values()].find((s) => s.relay?.kind === 'tap' && s.relay.client?.name === 'token-test-host'));
    expect(session.name).toBe('token-test-host 1.0.0');
    expectNoTokenInCmdline(pid, loupe.token, 'the tap');
    // The token is the tap's, not the server's: it is not passed on.
    const server = session.relay!.pid!;
    expectNoTokenInCmdline(server, loupe.token, 'the server');
    expect(readFileSync(`/proc/${server}/environ`, 'utf8')).not.toContain('MCP_LOUPE_TOKEN');
  });

  it('takes the token from the state file when it names the Loupe given', async () => {
    const { loupe, client: page } = await harness.start({});
    const runtime = temp();
    const remove = writeRuntimeState({ url: loupe.url, pid: process.pid, version: 'test' }, join(runtime, 'mcp-loupe'));
    try {
      const { pid } = await tap(['--attach', `${loupe.origin}/`, '--label', 'from the state file'], { XDG_RUNTIME_DIR: runtime });
      const session = await page.until(() => [...page.sessions.values()].find((s) => s.relay?.kind === 'tap'));
      expect(session.name).toBe('from the state file');
      expectNoTokenInCmdline(pid, loupe.token, 'the tap');
    } finally {
      remove();
    }
  });

  it('without a token for that Loupe, says so and relays on its own', async () => {
    const { loupe, client: page } = await harness.start({});
    const { stderr } = await tap(['--attach', loupe.origin], { XDG_RUNTIME_DIR: temp() });
    await until(() => stderr().includes('no token'), 'the tap to say it has no token');
    expect(stderr()).toContain(`mcp-loupe: --attach ${loupe.origin}: no token for that Loupe (its state file names another Loupe, or none): set MCP_LOUPE_TOKEN to the token it printed; relaying and recording without it.`);
    await new Promise((r) => setTimeout(r, 300));
    expect([...page.sessions.values()].some((s) => s.relay?.kind === 'tap')).toBe(false);
  });
});
