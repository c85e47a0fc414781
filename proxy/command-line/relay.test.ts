/** The relay options as the command line gives them (issue 21): `--attach` without a token, `--gateway-no-auth`. */
import { describe, expect, it } from 'vitest';
import { parseCliArgs, USAGE } from './options.ts';

const parse = (argv: string[]) => parseCliArgs(argv);
const relayOf = (argv: string[]) => {
  const result = parse(argv);
  if (!result.ok) throw new Error(result.error);
  return result.options.relay;
};
const errorOf = (argv: string[]) => {
  const result = parse(argv);
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.options.relay)}`);
  return result.error;
};

describe('--attach', () => {
  it('takes the address of a Loupe on this machine, or its port, and keeps its origin', () => {
    expect(relayOf(['--tap', '--attach', 'http://127.0.0.1:6280/', '--', 'node', 's.js']).attach).toBe('http://127.0.0.1:6280');
    expect(relayOf(['--tap', '--attach', 'http://localhost:6281', '--', 'node', 's.js']).attach).toBe('http://localhost:6281');
    expect(relayOf(['--tap', '--attach', '6282', '--', 'node', 's.js']).attach).toBe('http://127.0.0.1:6282');
  });

  it('refuses the token in the URL, saying it leaked and what to do instead', () => {
    for (const url of ['http://127.0.0.1:6280/?token=abc', 'http://127.0.0.1:6280/?x=1&token=', 'ws://127.0.0.1:6280/ws?token=abc', 'http://127.0.0.1:6280/#token=abc']) {
      const error = errorOf(['--tap', '--attach', url, '--', 'node', 's.js']);
      expect(error).toContain("--attach was given Loupe's token in its URL, and a command line is readable by every user of this machine");
      expect(error).toContain('that token has leaked, so stop that Loupe and start it again for a new one');
      expect(error).toContain('MCP_LOUPE_TOKEN');
    }
  });

  it('refuses what is not a Loupe on this machine', () => {
    for (const value of ['http://example.com:6280/', 'http://127.0.0.1/', 'ftp://127.0.0.1:21/', 'not a url', '99999', '0']) {
      expect(errorOf(['--tap', '--attach', value, '--', 'node', 's.js'])).toContain('--attach expects the address of a Loupe on this machine');
    }
  });
});

describe('--gateway-no-auth', () => {
  it('is a flag of --gateway only, and the help names it', () => {
    expect(relayOf(['--gateway', '--gateway-no-auth', 'node', 's.js']).gatewayNoAuth).toBe(true);
    expect(relayOf(['--gateway', 'node', 's.js']).gatewayNoAuth).toBeUndefined();
    expect(errorOf(['--gateway-no-auth', 'node', 's.js'])).toBe('--gateway-port, --gateway-idle, --gateway-max-sessions and --gateway-no-auth are for --gateway.');
    expect(USAGE).toContain('--gateway-no-auth');
    expect(USAGE).toContain('MCP_LOUPE_TOKEN');
  });
});
