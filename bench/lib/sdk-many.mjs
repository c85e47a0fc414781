/**
 * The baseline of bench/workspace.mjs: one bare Node process connecting N SDK `Client`s over the
 * SDK's own `StdioClientTransport`, all in parallel, to the same server command. Prints
 * "ready N" once every one has finished `initialize`, then idles until SIGTERM.
 * Usage: node bench/lib/sdk-many.mjs <N> <name-arg: 0|1> <server command> [args...]
 * (name-arg 1: each server gets its name, s0…s(N-1), as a last argument, as the fixture wants.)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [count, nameArg, command, ...args] = process.argv.slice(2);
const clients = await Promise.all(
  Array.from({ length: Number(count) }, async (_, i) => {
    const client = new Client({ name: `bench-baseline-${i}`, version: '0.0.0' }, { capabilities: {} });
    await client.connect(new StdioClientTransport({ command, args: nameArg === '1' ? [...args, `s${i}`] : args, stderr: 'pipe' }));
    // Drain the server's stderr like Loupe does, so neither side is blocked by a full pipe.
    client.transport?.stderr?.resume?.();
    return client;
  }),
);
process.stdout.write(`ready ${clients.length}\n`);
process.on('SIGTERM', () => {
  Promise.allSettled(clients.map((c) => c.close())).then(() => process.exit(0));
});
