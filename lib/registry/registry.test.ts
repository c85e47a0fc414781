import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareEntry } from './compare.ts';
import { readEntry } from './entry.ts';
import { fieldsOf, optionsOf, planLaunch, type RegistryOption } from './launch.ts';
import { checkServerJson, SCHEMA_VERSIONS } from './validate.ts';

const CURRENT = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
const PREVIOUS = 'https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json';

const npmEntry = {
  $schema: CURRENT,
  name: 'io.github.example/weather',
  title: 'Weather',
  description: 'Forecasts from a weather service',
  version: '1.4.0',
  websiteUrl: 'https://example.com/weather',
  packages: [{
    registryType: 'npm', identifier: '@example/weather-mcp', version: '1.4.0', transport: { type: 'stdio' },
    runtimeArguments: [{ type: 'named', name: '--node-options', value: '--max-old-space-size={mb}', variables: { mb: { default: '256', description: 'Heap size in MB' } } }],
    packageArguments: [
      { type: 'positional', valueHint: 'data_dir', isRequired: true, description: 'Where forecasts are cached' },
      { type: 'named', name: '--units', choices: ['metric', 'imperial'], default: 'metric' },
      { type: 'named', name: '--station', isRepeated: true },
      { type: 'named', name: '--token', isSecret: true },
    ],
    environmentVariables: [
      { name: 'WEATHER_API_KEY', isRequired: true, isSecret: true, description: 'API key' },
      { name: 'WEATHER_REGION', choices: ['eu', 'us'], default: 'eu' },
      { name: 'LOG_LEVEL' },
    ],
  }],
};

const remoteEntry = {
  $schema: CURRENT,
  name: 'com.example/tenant-mcp',
  description: 'A multi-tenant remote',
  version: '2.0.0',
  remotes: [
    { type: 'streamable-http', url: 'https://{tenant}.example.com/mcp', variables: { tenant: { isRequired: true, description: 'Tenant id' } },
      headers: [{ name: 'Authorization', value: 'Bearer {token}', variables: { token: { isRequired: true, isSecret: true } } }, { name: 'X-Trace', default: 'off' }] },
    { type: 'sse', url: 'https://example.com/sse' },
  ],
};

const invalidEntry = {
  $schema: CURRENT,
  name: 'no-slash-here',
  description: 'Broken',
  version: '1.0.0',
  packages: [{ registryType: 'npm', identifier: 'broken-mcp', version: 'latest', transport: { type: 'stdoi' }, packageArguments: [{ type: 'positional' }] }],
  remotes: [{ type: 'sse', url: 'ftp://example.com/sse' }],
};

const option = (entry: object, n = 0): RegistryOption => optionsOf(readEntry(entry))[n];

describe('checkServerJson', () => {
  it('accepts a valid current entry and reads it', () => {
    const check = checkServerJson(JSON.stringify(npmEntry));
    expect(check.ok && check.problems).toEqual([]);
    expect(check.ok && check.version).toBe('2025-12-11');
    expect(check.ok && check.entry.packages[0].environmentVariables.map((e) => e.name)).toEqual(['WEATHER_API_KEY', 'WEATHER_REGION', 'LOG_LEVEL']);
    expect(check.ok && checkServerJson(JSON.stringify(remoteEntry)).ok && (checkServerJson(JSON.stringify(remoteEntry)) as { problems: unknown[] }).problems).toEqual([]);
  });

  it('lists errors by JSON path in plain words, one for a wrong transport type', () => {
    const check = checkServerJson(JSON.stringify(invalidEntry));
    if (!check.ok) throw new Error(check.error);
    expect(check.problems).toEqual([
      { path: '/name', message: 'must match the pattern ^[A-Za-z0-9.-]+/[A-Za-z0-9._-]+$' },
      { path: '/packages/0/packageArguments/0', message: 'must have valueHint or value' },
      { path: '/packages/0/transport/type', message: 'must be one of stdio, streamable-http, sse' },
      { path: '/packages/0/version', message: 'must not be "latest"' },
      { path: '/remotes/0/url', message: 'must match the pattern ^https?://\\S+$' },
    ]);
    // Still shown as far as it can be read.
    expect(check.entry.packages[0].identifier).toBe('broken-mcp');
  });

  it('uses the previous version when the file names it (remote variables are 2025-12-11 only)', () => {
    const old = { ...remoteEntry, $schema: PREVIOUS, remotes: [{ type: 'sse', url: 'not a url' }] };
    const check = checkServerJson(JSON.stringify(old));
    expect(check.ok && check.version).toBe('2025-10-17');
    expect(check.ok && check.problems).toEqual([{ path: '/remotes/0/url', message: 'must be a full URL (with its scheme)' }]);
    // The same file against the current version fails differently (a pattern, not a format).
    const now = checkServerJson(JSON.stringify({ ...old, $schema: CURRENT }));
    expect(now.ok && now.problems[0].message).toMatch(/pattern/);
  });

  it('accepts a realistic full entry in both versions, and finds mistakes in its other parts by path', () => {
    const full = {
      $schema: CURRENT,
      name: 'io.github.example/files',
      title: 'Files',
      description: 'Reads and writes files under a root',
      version: '0.9.1',
      websiteUrl: 'https://example.com/files',
      repository: { url: 'https://github.com/example/files', source: 'github', subfolder: 'servers/files', id: '123456' },
      icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48', 'any'], theme: 'dark' }],
      packages: [
        { registryType: 'npm', registryBaseUrl: 'https://registry.npmjs.org', identifier: '@example/files', version: '0.9.1', transport: { type: 'stdio' },
          packageArguments: [{ type: 'positional', valueHint: 'root', format: 'filepath', isRequired: true }, { type: 'named', name: '--read-only', format: 'boolean', default: 'false' }],
          environmentVariables: [{ name: 'FILES_TOKEN', isSecret: true, value: 'Bearer {t}', variables: { t: { isSecret: true, isRequired: true } } }] },
        { registryType: 'mcpb', identifier: 'https://example.com/files.mcpb', fileSha256: 'ab'.repeat(32), transport: { type: 'streamable-http', url: 'http://localhost:{port}/mcp', headers: [{ name: 'X-Key', isSecret: true }] } },
        { registryType: 'oci', identifier: 'ghcr.io/example/files', version: '0.9.1', transport: { type: 'sse', url: 'http://localhost:8080/sse' } },
      ],
      remotes: [{ type: 'streamable-http', url: 'https://files.example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer {key}', variables: { key: { isSecret: true } } }] }],
      _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { tool: 'hand-written' } },
    };
    expect(checkServerJson(JSON.stringify(full))).toMatchObject({ ok: true, version: '2025-12-11', problems: [] });
    expect(checkServerJson(JSON.stringify({ ...full, $schema: PREVIOUS }))).toMatchObject({ ok: true, version: '2025-10-17', problems: [] });
    const broken = {
      ...full,
      repository: { url: 'github.com/example/files' },
      icons: [{ src: 'https://example.com/icon.png', theme: 'sepia' }],
      packages: [{ ...full.packages[1], fileSha256: 'xyz', transport: { type: 'streamable-http' } }, { ...full.packages[0], packageArguments: [{ type: 'named' }, { type: 'flag', name: '--x' }] }],
      remotes: [{ type: 'stdio', url: 'https://files.example.com/mcp' }, { url: 'https://files.example.com/mcp' }],
    };
    const check = checkServerJson(JSON.stringify(broken));
    expect(check.ok && check.problems).toEqual([
      { path: '/icons/0/theme', message: 'must be one of light, dark' },
      { path: '/packages/0/fileSha256', message: 'must match the pattern ^[0-9a-f]{64}$' },
      { path: '/packages/0/transport', message: 'url is required' },
      { path: '/packages/1/packageArguments/0', message: 'name is required' },
      { path: '/packages/1/packageArguments/1/type', message: 'must be one of positional, named' },
      { path: '/remotes/0/type', message: 'must be one of streamable-http, sse' },
      { path: '/remotes/1', message: 'type is required' },
      { path: '/repository', message: 'source is required' },
      { path: '/repository/url', message: 'must be a full URL (with its scheme)' },
    ]);
  });

  it('accepts the e2e fixtures and says what the invalid one gets wrong', () => {
    const fixture = (name: string) => checkServerJson(readFileSync(join(import.meta.dirname, '../../e2e/fixtures/registry', name), 'utf8'));
    expect(fixture('everything-package.server.json')).toMatchObject({ ok: true, problems: [] });
    expect(fixture('everything-remote.server.json')).toMatchObject({ ok: true, problems: [] });
    const invalid = fixture('invalid.server.json');
    expect(invalid.ok && invalid.problems.map((p) => p.path)).toEqual(['/name', '/packages/0/packageArguments/0', '/packages/0/transport/type', '/packages/0/version']);
  });

  it('checks an unknown $schema against the current version and says so', () => {
    const check = checkServerJson(JSON.stringify({ ...npmEntry, $schema: 'https://static.modelcontextprotocol.io/schemas/2099-01-01/server.schema.json' }));
    expect(check.ok && check.version).toBe(SCHEMA_VERSIONS[0].version);
    expect(check.ok && check.schemaNote).toMatch(/does not know the schema .*2099-01-01.*current version, 2025-12-11/);
  });

  it('names a missing required field and a file that is not JSON', () => {
    const check = checkServerJson(JSON.stringify({ $schema: CURRENT, name: 'a/b', version: '1' }));
    expect(check.ok && check.problems).toEqual([{ path: '', message: 'description is required' }]);
    expect(checkServerJson('{ nope')).toMatchObject({ ok: false, error: expect.stringMatching(/^Not JSON/) });
  });
});

describe('fieldsOf', () => {
  it('asks for each argument, variable and environment variable, with what the entry declares', () => {
    const fields = fieldsOf(option(npmEntry));
    expect(fields.map((f) => [f.key, f.label, f.kind])).toEqual([
      ['runtime:0.mb', '--node-options: mb', 'runtime argument'],
      ['package:0', 'data_dir', 'package argument'],
      ['package:1', '--units', 'package argument'],
      ['package:2', '--station', 'package argument'],
      ['package:3', '--token', 'package argument'],
      ['env:WEATHER_API_KEY', 'WEATHER_API_KEY', 'environment variable'],
      ['env:WEATHER_REGION', 'WEATHER_REGION', 'environment variable'],
      ['env:LOG_LEVEL', 'LOG_LEVEL', 'environment variable'],
    ]);
    expect(fields[0]).toMatchObject({ default: '256', description: 'Heap size in MB', required: false });
    expect(fields[2]).toMatchObject({ choices: ['metric', 'imperial'], default: 'metric' });
    expect(fields[3].repeated).toBe(true);
    expect(fields[5]).toMatchObject({ required: true, secret: true, description: 'API key' });
  });
});

describe('planLaunch', () => {
  const filled = { 'package:0': '/tmp/cache', 'package:2': 'LHR\n\nJFK\n', 'package:3': 's3cret-token', 'env:WEATHER_API_KEY': 'key-123' };

  it('runs an npm package with npx, defaults, variables, repeated and secret arguments', () => {
    const plan = planLaunch(readEntry(npmEntry), option(npmEntry), filled);
    if (!plan.ok) throw new Error(JSON.stringify(plan));
    expect(plan.config).toEqual({
      kind: 'stdio', name: 'Weather', command: 'npx',
      args: ['-y', '--node-options=--max-old-space-size=256', '@example/weather-mcp@1.4.0', '/tmp/cache', '--units=metric', '--station=LHR', '--station=JFK', '--token=${input:loupe-Weather--token}'],
      env: { WEATHER_API_KEY: 'key-123', WEATHER_REGION: 'eu' },
    });
    expect(plan.secretEnv).toEqual(['WEATHER_API_KEY']);
    expect(plan.inputs).toEqual({ 'loupe-Weather--token': 's3cret-token' });
    expect(JSON.stringify(plan.config)).not.toContain('s3cret-token');
  });

  it('says what required value is missing', () => {
    const plan = planLaunch(readEntry(npmEntry), option(npmEntry), {});
    expect(plan).toEqual({ ok: false, missing: ['data_dir', 'WEATHER_API_KEY'] });
  });

  it('lets a typed value win over the default and leaves an unknown {name} as written', () => {
    const entry = structuredClone(npmEntry);
    entry.packages[0].runtimeArguments[0].value = '--max-old-space-size={mb}{other}';
    const plan = planLaunch(readEntry(entry), option(entry), { ...filled, 'runtime:0.mb': '512', 'package:1': 'imperial' });
    expect(plan.ok && plan.config.kind === 'stdio' && plan.config.args.slice(1, 5)).toEqual(['--node-options=--max-old-space-size=512{other}', '@example/weather-mcp@1.4.0', '/tmp/cache', '--units=imperial']);
  });

  it('runs pypi with uvx, oci with docker (env as -e NAME only), nuget with dnx', () => {
    const base = { name: 'a/b', description: 'd', version: '1' };
    const run = (pkg: object, given: Record<string, string> = {}) => {
      const entry = { ...base, packages: [{ transport: { type: 'stdio' }, ...pkg }] };
      const plan = planLaunch(readEntry(entry), option(entry), given);
      if (!plan.ok || plan.config.kind !== 'stdio') throw new Error(JSON.stringify(plan));
      return plan;
    };
    expect(run({ registryType: 'pypi', identifier: 'mcp-server-time', version: '0.6.2', packageArguments: [{ type: 'named', name: '--local-timezone', value: 'UTC' }] }).config)
      .toMatchObject({ command: 'uvx', args: ['mcp-server-time==0.6.2', '--local-timezone=UTC'] });
    const oci = run({ registryType: 'oci', identifier: 'ghcr.io/example/server', version: '1.2.3', runtimeArguments: [{ type: 'named', name: '--network', value: 'none' }], environmentVariables: [{ name: 'TOKEN', isSecret: true, isRequired: true }] }, { 'env:TOKEN': 'tok' });
    expect(oci.config).toMatchObject({ command: 'docker', args: ['run', '-i', '--rm', '--network=none', '-e', 'TOKEN', 'ghcr.io/example/server:1.2.3'], env: { TOKEN: 'tok' } });
    expect(oci.secretEnv).toEqual(['TOKEN']);
    expect(run({ registryType: 'oci', identifier: 'docker.io/mcp/fs:v2' }).config).toMatchObject({ args: ['run', '-i', '--rm', 'docker.io/mcp/fs:v2'] });
    expect(run({ registryType: 'nuget', identifier: 'Example.Mcp', version: '0.3.0' }).config).toMatchObject({ command: 'dnx', args: ['Example.Mcp@0.3.0', '--yes'] });
  });

  it('runs another runtimeHint with the entry arguments only, and says so', () => {
    const entry = { name: 'a/b', description: 'd', version: '1', packages: [{ registryType: 'npm', identifier: 'local-server', version: '1.0.0', runtimeHint: 'node', transport: { type: 'stdio' }, runtimeArguments: [{ type: 'positional', value: '/srv/server.mjs' }], packageArguments: [{ type: 'positional', valueHint: 'name', default: 'demo' }] }] };
    const plan = planLaunch(readEntry(entry), option(entry), {});
    expect(plan.ok && plan.config).toMatchObject({ command: 'node', args: ['/srv/server.mjs', 'demo'] });
    expect(plan.ok && plan.notes[0]).toMatch(/runtimeHint "node" is not the runner Loupe knows for npm packages \(npx\).*local-server is not put on the command line/);
  });

  it('does not launch an MCPB bundle or a package served over HTTP, and says why', () => {
    const entry = { name: 'a/b', description: 'd', version: '1', packages: [
      { registryType: 'mcpb', identifier: 'https://example.com/x.mcpb', fileSha256: 'a'.repeat(64), transport: { type: 'stdio' } },
      { registryType: 'npm', identifier: 'x', version: '1', transport: { type: 'streamable-http', url: 'http://localhost:{port}/mcp' } },
    ] };
    expect(planLaunch(readEntry(entry), option(entry, 0), {})).toMatchObject({ ok: false, error: expect.stringMatching(/MCPB/) });
    expect(planLaunch(readEntry(entry), option(entry, 1), {})).toMatchObject({ ok: false, error: expect.stringMatching(/start it yourself/) });
  });

  it('fills a remote URL and its headers; a header with a secret variable is secret', () => {
    const entry = readEntry(remoteEntry);
    expect(fieldsOf(option(remoteEntry)).map((f) => f.label)).toEqual(['tenant', 'Authorization: token', 'X-Trace']);
    expect(planLaunch(entry, option(remoteEntry), {})).toEqual({ ok: false, missing: ['tenant', 'Authorization: token'] });
    const plan = planLaunch(entry, option(remoteEntry), { 'url.tenant': 'acme', 'header:Authorization.token': 'abc' });
    expect(plan.ok && plan.config).toEqual({ kind: 'http', name: 'tenant-mcp', url: 'https://acme.example.com/mcp', transport: 'http', headers: { Authorization: 'Bearer abc', 'X-Trace': 'off' } });
    expect(plan.ok && plan.secretHeaders).toEqual(['Authorization']);
    expect(planLaunch(entry, option(remoteEntry, 1), {})).toMatchObject({ ok: true, config: { transport: 'sse', url: 'https://example.com/sse' } });
  });
});

describe('compareEntry', () => {
  it('says "matches" or both values, field by field, and the transport', () => {
    const rows = compareEntry(readEntry(npmEntry), option(npmEntry), { serverInfo: { name: 'io.github.example/weather', title: 'Weather', version: '1.3.9' }, transport: 'stdio' });
    expect(rows.map((r) => r.text)).toEqual([
      'name: matches ("io.github.example/weather")',
      'title: matches ("Weather")',
      'version: the entry says "1.4.0", the server says "1.3.9"',
      'description: the entry says "Forecasts from a weather service", the server says nothing',
      'websiteUrl: the entry says "https://example.com/weather", the server says nothing',
      'transport: matches ("stdio")',
    ]);
  });
});
