import { describe, expect, it } from 'vitest';
import type { ServerConfig } from '../model/server-config.ts';
import { isReference, referencesOf, resolveReferences, secretInputId, secretsAsReferences } from './references.ts';
import type { WorkspaceServer } from './types.ts';

const stdio: ServerConfig = {
  kind: 'stdio', name: 's', command: '${userHome}/bin/srv',
  args: ['--root', '${workspaceFolder}', '--key=${input:key}', '${command:pick}'],
  env: { TOKEN: '${env:TOKEN}', URL: '${DB_URL:-sqlite://local}', PLAIN: 'x', BOTH: '${input:key}-${env:REGION}', GONE: '${NOPE}' },
  cwd: '${workspaceFolder}/srv',
};
const http: ServerConfig = { kind: 'http', name: 'h', url: 'https://${env:HOST}/mcp', transport: 'auto', headers: { Authorization: 'Bearer ${input:tok}' } };

describe('referencesOf', () => {
  it('finds input and env references in every field, once each, in order', () => {
    expect(referencesOf(stdio)).toEqual({ inputs: ['key'], env: ['TOKEN', 'DB_URL', 'REGION', 'NOPE'] });
    expect(referencesOf(http)).toEqual({ inputs: ['tok'], env: ['HOST'] });
  });
});

describe('resolveReferences', () => {
  it('replaces what it knows; lists missing inputs, unset env and unknown placeholders', () => {
    const { config, missing, missingEnv, unresolved } = resolveReferences(stdio, {
      env: { TOKEN: 't0k', REGION: 'eu', UNUSED: undefined },
      inputs: {},
      vars: { workspaceFolder: '/w' },
    });
    expect(config).toEqual({
      kind: 'stdio', name: 's', command: '${userHome}/bin/srv',
      args: ['--root', '/w', '--key=${input:key}', '${command:pick}'],
      env: { TOKEN: 't0k', URL: 'sqlite://local', PLAIN: 'x', BOTH: '${input:key}-eu', GONE: '' },
      cwd: '/w/srv',
    });
    expect(missing).toEqual(['key']);
    expect(missingEnv).toEqual(['NOPE']);
    expect(unresolved).toEqual(['${userHome}', '${command:pick}']);
  });

  it('fills inputs, in headers and urls too', () => {
    const { config, missing } = resolveReferences(http, { env: { HOST: 'h.example' }, inputs: { tok: 'abc' } });
    expect(config).toMatchObject({ url: 'https://h.example/mcp', headers: { Authorization: 'Bearer abc' } });
    expect(missing).toEqual([]);
  });

  it('substitutes once: a value holding ${…} is not expanded again', () => {
    const { config } = resolveReferences(http, { env: { HOST: '${input:tok}' }, inputs: { tok: 'abc' } });
    expect(config).toMatchObject({ url: 'https://${input:tok}/mcp' });
  });

  it('does not read inherited keys as values', () => {
    const { missing } = resolveReferences({ ...http, headers: { A: '${input:toString}' } }, { env: {}, inputs: {} });
    expect(missing).toEqual(['toString']);
  });
});

describe('secrets as references', () => {
  it('sanitises the input id', () => {
    expect(secretInputId('my server/2', 'API_KEY')).toBe('loupe-my-server-2-API_KEY');
    expect(secretInputId('a.b', 'X-Api-Key')).toBe('loupe-a.b-X-Api-Key');
  });

  it('is a reference: env always, inputs unless declared without password', () => {
    expect(isReference('${env:X}')).toBe(true);
    expect(isReference('Bearer ${input:t}')).toBe(true);
    expect(isReference('${input:t}', [{ id: 't', type: 'promptString' }])).toBe(false);
    expect(isReference('${input:t}', [{ id: 't', type: 'promptString', password: true }])).toBe(true);
    expect(isReference('${workspaceFolder}')).toBe(false);
    expect(isReference('plain')).toBe(false);
  });

  it('replaces only marked literal values, declaring each input once', () => {
    const server: WorkspaceServer = {
      name: 'srv', disabled: false, secretHeaders: [], extras: {},
      secretEnv: ['A', 'B', 'MISSING'],
      config: { kind: 'stdio', command: 'x', args: [], env: { A: 'secret-a', B: '${env:B}', C: 'shown' } },
    };
    const { server: safe, inputs } = secretsAsReferences(server);
    expect(safe.config).toMatchObject({ env: { A: '${input:loupe-srv-A}', B: '${env:B}', C: 'shown' } });
    expect(inputs).toEqual([{ id: 'loupe-srv-A', type: 'promptString', description: 'A for srv', password: true }]);
    expect(secretsAsReferences(server, inputs).inputs).toEqual([]);
    expect(server.config).toMatchObject({ env: { A: 'secret-a' } });
  });
});
