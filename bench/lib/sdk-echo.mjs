/**
 * A bare 1.x SDK `Client` over the SDK's own stdio transport, calling server-everything's `echo`:
 * the "direct" side of the echo benchmarks (echo-latency.mjs, tap.mjs). `command args` is what it
 * starts (the server itself, or something in front of it).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { checkEcho } from './common.mjs';

export async function openSdkEcho(name, command, args) {
  const transport = new StdioClientTransport({ command, args, stderr: 'pipe' });
  const client = new Client({ name, version: '0.0.0' }, { capabilities: {} });
  await client.connect(transport);
  transport.stderr?.resume();
  return echoSide(client);
}

/** A connected SDK Client (1.x or v2) as a benchmark side: `call` is one checked echo, `close` ends it. */
export function echoSide(client) {
  let n = 0;
  const call = async () => {
    const message = `hello ${n++}`;
    checkEcho(await client.callTool({ name: 'echo', arguments: { message } }), message);
  };
  return { call, close: () => client.close() };
}
