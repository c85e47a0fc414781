/**
 * `--protocol` in the headless modes through the built CLI (issue 12, point 5: the CLI works against
 * both generations): its parse errors; one request against the 2026-07-28 fixture over stdio and
 * Streamable HTTP in each mode, with its input rounds answered by --elicit / --sample; the default
 * refused with a hint that names the way out; a 2026 recording verified without --protocol; smoke.
 * Needs a current build (`node .ci/build.mjs proxy`). Every process started here is stopped.
 */
import { runBuiltCli, stopChild } from '../../testing/children.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const MODERN = join(ROOT, 'e2e', 'fixtures', 'modern-server.mjs');
const RAW = join(ROOT, 'e2e', 'fixtures', 'modern-raw.mjs');
const EVERYTHING = [process.execPath, join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')];
const MODERN_STDIO = [process.execPath, MODERN, '--stdio', '--modern-only'];
const ECHO = ['--cli', '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=hi', '--format', 'text'];
const CONFIRM = ['--cli', '--method', 'tools/call', '--tool-name', 'confirm-delete', '--tool-arg', 'path=/tmp/x', '--format', 'text'];
const HINT = 'This server speaks the stateless 2026-07-28 protocol: choose 2026-07-28 (stateless) or Auto in Protocol (--protocol 2026-07-28|auto).';

const children: ChildProcess[] = [];

afterAll(async () => {
  await Promise.all(children.map(stopChild));
});

const loupe = (args: string[]) => runBuiltCli(args, children);

/** Starts an HTTP fixture on a free port and waits for its ready line. */
async function serve(script: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [script, ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  child.stderr!.resume();
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  for (const end = Date.now() + 60_000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    const ready = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(out);
    if (ready) return ready[1];
    if (child.exitCode !== null) break;
  }
  throw new Error(`${script} did not print its ready line; stdout: ${out}`);
}

const dir = mkdtempSync(join(tmpdir(), 'loupe-protocol-'));

describe('--protocol on the command line', () => {
  it('refuses a value it does not know, in one sentence, with exit 2', async () => {
    const out = await loupe(['--cli', '--protocol', '2027-01-01', '--method', 'tools/list', ...MODERN_STDIO]);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr.split('\n')[0]).toBe('mcp-loupe: --protocol expects 2025-11-25, 2026-07-28 or auto, got "2027-01-01".');
  });

  it('refuses a missing value, whether the line ends or another option follows', async () => {
    const last = await loupe(['--cli', '--method', 'tools/list', '--protocol']);
    expect(last.code).toBe(2);
    expect(last.stderr.split('\n')[0]).toBe('mcp-loupe: --protocol needs a value.');
    const option = await loupe(['--cli', '--protocol', '--method', 'tools/list', ...MODERN_STDIO]);
    expect(option.code).toBe(2);
    expect(option.stderr.split('\n')[0]).toBe('mcp-loupe: --protocol needs a value, got the option --method (write --protocol=--method if you mean it).');
  });
});

describe('a 2026-07-28 server over stdio (modern-only)', () => {
  it('answers with --protocol auto and --protocol 2026-07-28 (any case, = form too)', async () => {
    for (const protocol of [['--protocol', 'auto'], ['--protocol', '2026-07-28'], ['--protocol=AUTO']]) {
      const out = await loupe([...ECHO, ...protocol, ...MODERN_STDIO]);
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
      expect(out.stdout).toBe('echo: hi\n');
    }
  });

  it('is refused with exit 3 by default, with the hint that names 2026-07-28 and Auto', async () => {
    for (const protocol of [[], ['--protocol', '2025-11-25']]) {
      const out = await loupe([...ECHO, ...protocol, ...MODERN_STDIO]);
      expect(out.code).toBe(3);
      expect(out.stdout).toBe('');
      expect(out.stderr).toBe(`mcp-loupe: The server supports 2026-07-28; Loupe asked for 2025-11-25.\n${HINT}\n`);
    }
  });

  it('answers an elicitation round with --elicit (accept-defaults gives no confirm: Kept)', async () => {
    const out = await loupe([...CONFIRM, '--protocol', '2026-07-28', '--elicit', 'accept-defaults', '--verbose', ...MODERN_STDIO]);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('Kept /tmp/x\n');
    // The round happened: the server asked, the policy answered, the call was sent again.
    expect(out.stderr).toContain('mcp-loupe: the server asked for elicitation/create: answered {"action":"accept","content":{}}');
    expect(out.stderr).toMatch(/→ .*"inputResponses":\{"confirm":\{"action":"accept","content":\{\}\}\}/);
  });

  it('answers a sampling round with --sample', async () => {
    const out = await loupe(['--cli', '--method', 'tools/call', '--tool-name', 'ask-model', '--tool-arg', 'question=why', '--format', 'text', '--protocol', '2026-07-28', '--sample', 'forty-two', ...MODERN_STDIO]);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('The model said: forty-two\n');
  });

  it('says what was refused when no --sample is given', async () => {
    const out = await loupe(['--cli', '--method', 'tools/call', '--tool-name', 'ask-model', '--tool-arg', 'question=why', '--protocol', '2026-07-28', ...MODERN_STDIO]);
    expect(out.code).not.toBe(0);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('mcp-loupe: The input the server asked for (answer) was not given: Sampling was refused');
    expect(out.stderr).toContain('give --sample "<reply text>"');
  });
  it('exits 1 for a refused input round (the call failed, not the connection), in clean words', async () => {
    const out = await loupe(['--cli', '--method', 'tools/call', '--tool-name', 'ask-model', '--tool-arg', 'question=why', '--protocol', '2026-07-28', ...MODERN_STDIO]);
    expect(out.code).toBe(1);
    expect(out.stderr).not.toContain('..');
  });

  it('records a 2026 call with rounds, and verifies it without --protocol: no drift, the round not replayed', async () => {
    const trace = join(dir, 'confirm-stdio.jsonl');
    const recorded = await loupe([...CONFIRM, '--protocol', '2026-07-28', '--elicit', 'accept-defaults', '--record', trace, ...MODERN_STDIO]);
    expect(recorded.code).toBe(0);
    expect(readFileSync(trace, 'utf8')).toContain('"round":{"call":"loupe-2","n":2}');
    const verified = await loupe(['--verify', trace, '--elicit', 'accept-defaults', ...MODERN_STDIO]);
    expect(verified.stderr).toBe('mcp-loupe: The recording is of a 2026-07-28 session: verifying with --protocol 2026-07-28.\n');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('Note: The recording is of a 2026-07-28 session, which has no initialize: there is no handshake to compare.');
    expect(verified.stdout).toMatch(/^ {2}seq \d+ server\/discover: not replayed: Loupe's protocol probe, which the live session sends again on its own$/m);
    expect(verified.stdout).toMatch(/^ {2}seq \d+ tools\/call: not replayed: round 2 of the call at seq \d+ \(input_required\): the live call runs its rounds itself, and its final answer is compared$/m);
    expect(verified.stdout).toContain('Result: no drift: 2 of 2 answers are the same (exit 0).');
  });

  it('verifies with the protocol given when there is one, without the note', async () => {
    const trace = join(dir, 'echo-stdio.jsonl');
    expect((await loupe([...ECHO, '--protocol', '2026-07-28', '--record', trace, ...MODERN_STDIO])).code).toBe(0);
    const verified = await loupe(['--verify', trace, '--protocol', 'auto', ...MODERN_STDIO]);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('Result: no drift');
  });

  it('smoke-tests every tool on 2026-07-28 (exit 0 with --sample)', async () => {
    const out = await loupe(['--smoke', '--allow-writes', '--protocol', '2026-07-28', '--sample', 'ok', ...MODERN_STDIO]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Smoke test of modern-fixture 1.0.0 (protocol 2026-07-28)');
    expect(out.stdout).toMatch(/^confirm-delete +passed/m);
    expect(out.stdout).toContain('7 tools: 7 passed, 0 failed, 0 warnings');
  });
});

describe('a 2025 server (server-everything)', () => {
  it('is spoken to with auto, and refused by 2026-07-28 with the hint that names 2025-11-25 and Auto', async () => {
    const auto = await loupe(['--cli', '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=hi', '--format', 'text', '--protocol', 'auto', ...EVERYTHING]);
    expect(auto.code).toBe(0);
    expect(auto.stdout).toBe('Echo: hi\n');
    const pinned = await loupe(['--cli', '--method', 'tools/list', '--protocol', '2026-07-28', ...EVERYTHING]);
    expect(pinned.code).toBe(3);
    expect(pinned.stdout).toBe('');
    expect(pinned.stderr).toContain('mcp-loupe: This server does not speak 2026-07-28: error -32601: Method not found.\nChoose 2025-11-25 (sessions) or Auto in Protocol (--protocol 2025-11-25|auto) to open a 2025 session.\n');
  });
});

describe('a 2026-07-28 server over Streamable HTTP', () => {
  let url = '';
  let raw = '';
  beforeAll(async () => {
    [url, raw] = await Promise.all([serve(MODERN, ['--http', '--modern-only']), serve(RAW, ['--variant', 'good'])]);
  });

  it('answers with auto and 2026-07-28, and refuses the default with the hint', async () => {
    for (const protocol of ['auto', '2026-07-28']) {
      const out = await loupe([...ECHO, '--protocol', protocol, url]);
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
      expect(out.stdout).toBe('echo: hi\n');
    }
    const refused = await loupe([...ECHO, url]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(HINT);
  });

  it('answers rounds, and verifies a recording of them without --protocol', async () => {
    const sampled = await loupe(['--cli', '--method', 'tools/call', '--tool-name', 'ask-model', '--tool-arg', 'question=why', '--format', 'text', '--protocol', '2026-07-28', '--sample', 'forty-two', url]);
    expect(sampled.code).toBe(0);
    expect(sampled.stdout).toBe('The model said: forty-two\n');
    const trace = join(dir, 'confirm-http.jsonl');
    const recorded = await loupe([...CONFIRM, '--protocol', '2026-07-28', '--elicit', 'accept-defaults', '--record', trace, url]);
    expect(recorded.code).toBe(0);
    expect(recorded.stdout).toBe('Kept /tmp/x\n');
    const verified = await loupe(['--verify', trace, url]);
    expect(verified.stderr).toBe('mcp-loupe: The recording is of a 2026-07-28 session: verifying with --protocol 2026-07-28.\n');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/tools\/call: not replayed: round 2 of the call at seq \d+ \(input_required\)/);
    expect(verified.stdout).toContain('Result: no drift: 2 of 2 answers are the same (exit 0).');
  });

  it('smoke-tests every tool', async () => {
    const out = await loupe(['--smoke', '--allow-writes', '--protocol', '2026-07-28', '--sample', 'ok', url]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('(protocol 2026-07-28)');
    expect(out.stdout).toContain('7 tools: 7 passed, 0 failed, 0 warnings');
  });

  it('follows a tool call the server made a task with tasks/get to its result', async () => {
    const out = await loupe(['--cli', '--method', 'tools/call', '--tool-name', 'long-job', '--tool-arg', 'seconds=1', '--format', 'text', '--verbose', '--protocol', '2026-07-28', raw]);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('Job done after 1 s\n');
    expect(out.stderr).toMatch(/← .*"resultType":"task"/);
    expect(out.stderr).toMatch(/→ .*"method":"tasks\/get"/);
  });

  it('gives up on a task at --timeout with exit 4', async () => {
    const out = await loupe(['--cli', '--method', 'tools/call', '--tool-name', 'long-job', '--tool-arg', 'seconds=30', '--timeout', '2000', '--protocol', '2026-07-28', raw]);
    expect(out.code).toBe(4);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('Request timed out: the task was still "working" after 2000 ms (Loupe sent tasks/cancel)');
  });
});
