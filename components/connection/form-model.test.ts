import { describe, expect, it } from 'vitest';
import { configFromFields, connectTimeoutFromText, connectTimeoutText, EMPTY_FIELDS, fieldsFromConfig, PROTOCOL_OPTIONS } from './form-model.ts';

describe('connection form model', () => {
  it('builds a stdio config with quoted args, env and cwd', () => {
    const result = configFromFields({ ...EMPTY_FIELDS, command: ' node ', args: 'server.js --root "/a b"', env: 'A=1\nB=2', cwd: '/tmp' });
    // Named as the CLI names it (the same normaliser, lib/config/server-config.ts).
    expect(result).toEqual({ ok: true, config: { kind: 'stdio', name: 'server.js', command: 'node', args: ['server.js', '--root', '/a b'], env: { A: '1', B: '2' }, cwd: '/tmp' } });
  });

  it('maps the transport choices onto http configs', () => {
    const http = configFromFields({ ...EMPTY_FIELDS, transport: 'http', url: 'http://localhost:3001/mcp', headers: 'Authorization: Bearer x' });
    expect(http).toEqual({ ok: true, config: { kind: 'http', name: 'localhost:3001', url: 'http://localhost:3001/mcp', transport: 'auto', headers: { Authorization: 'Bearer x' } } });
    const sse = configFromFields({ ...EMPTY_FIELDS, transport: 'sse', url: 'https://example.com/sse' });
    expect(sse).toMatchObject({ ok: true, config: { transport: 'sse' } });
  });

  it('runs a script path with its interpreter, as the CLI does', () => {
    expect(configFromFields({ ...EMPTY_FIELDS, command: 'server.py' })).toMatchObject({ ok: true, config: { command: 'python3', args: ['server.py'] } });
  });

  it('says what is wrong', () => {
    expect(configFromFields(EMPTY_FIELDS)).toEqual({ ok: false, error: 'Enter a command to start the server' });
    expect(configFromFields({ ...EMPTY_FIELDS, command: 'x', args: '"open' })).toEqual({ ok: false, error: 'Arguments: Unclosed double quote' });
    expect(configFromFields({ ...EMPTY_FIELDS, transport: 'http', url: 'ftp://x' })).toMatchObject({ ok: false });
    expect(configFromFields({ ...EMPTY_FIELDS, command: 'x', env: 'nope' })).toMatchObject({ ok: false, error: 'Environment line 1: expected KEY=VALUE' });
  });

  it('round-trips a config through the fields', () => {
    const config = { kind: 'stdio' as const, name: 'demo', command: 'npx', args: ['-y', 'pkg with space'], env: { K: 'v' } };
    const back = configFromFields(fieldsFromConfig(config), config);
    expect(back).toEqual({ ok: true, config });
    const other = configFromFields({ ...fieldsFromConfig(config), command: 'node' }, config);
    // A new target takes the name the CLI would give it, not the old one.
    expect(other.ok && other.config.name).toBe('pkg with space');
    expect(fieldsFromConfig({ kind: 'http', url: 'https://x.test/mcp', transport: 'sse', headers: {} }).transport).toBe('sse');
  });
});

describe('protocol choice (issue 12)', () => {
  it('leaves the default out of the config, so configs written before it do not change', () => {
    const result = configFromFields({ ...EMPTY_FIELDS, command: 'node', args: 'server.js' });
    expect(result.ok && 'protocol' in result.config).toBe(false);
    expect(fieldsFromConfig(undefined).protocol).toBe('2025-11-25');
  });

  it('puts 2026-07-28 and auto in the config, for stdio and HTTP alike', () => {
    expect(configFromFields({ ...EMPTY_FIELDS, command: 'node', args: 'server.js', protocol: '2026-07-28' })).toMatchObject({ ok: true, config: { kind: 'stdio', protocol: '2026-07-28' } });
    expect(configFromFields({ ...EMPTY_FIELDS, transport: 'http', url: 'http://127.0.0.1:1/mcp', protocol: 'auto' })).toMatchObject({ ok: true, config: { kind: 'http', protocol: 'auto' } });
  });

  it('round-trips the choice through the fields, an explicit default included', () => {
    const modern = { kind: 'http' as const, name: 'm', url: 'http://127.0.0.1:1/mcp', transport: 'auto' as const, headers: {}, protocol: 'auto' as const };
    expect(fieldsFromConfig(modern).protocol).toBe('auto');
    expect(configFromFields(fieldsFromConfig(modern), modern)).toEqual({ ok: true, config: modern });
    const spelled = { ...modern, protocol: '2025-11-25' as const };
    expect(configFromFields(fieldsFromConfig(spelled), spelled)).toEqual({ ok: true, config: spelled });
    // Back to the default from a modern choice: the key goes away again.
    const back = configFromFields({ ...fieldsFromConfig(modern), protocol: '2025-11-25' }, modern);
    expect(back.ok && 'protocol' in back.config).toBe(false);
  });

  it('offers the three choices in the words of the contract, Auto saying it asks server/discover', () => {
    expect(PROTOCOL_OPTIONS.map((o) => o.label)).toEqual(['2025-11-25 (sessions)', '2026-07-28 (stateless)', 'Auto']);
    expect(PROTOCOL_OPTIONS.find((o) => o.value === 'auto')?.hint).toMatch(/server\/discover/);
  });
});

describe('connect timeout field', () => {
  it('reads seconds as milliseconds; empty keeps the session value', () => {
    expect(connectTimeoutFromText('')).toEqual({ ok: true });
    expect(connectTimeoutFromText(' 1.5 ')).toEqual({ ok: true, ms: 1500 });
    expect(connectTimeoutFromText('120')).toEqual({ ok: true, ms: 120_000 });
  });

  it('refuses what is not a sensible number of seconds', () => {
    for (const text of ['0', '-3', 'soon', '0.01', '4000']) {
      expect(connectTimeoutFromText(text)).toEqual({ ok: false, error: 'The connect timeout must be a number of seconds from 0.1 to 3600' });
    }
  });

  it('prefills from milliseconds', () => {
    expect(connectTimeoutText(30_000)).toBe('30');
    expect(connectTimeoutText(1_500)).toBe('1.5');
    expect(connectTimeoutText(undefined)).toBe('');
  });
});
