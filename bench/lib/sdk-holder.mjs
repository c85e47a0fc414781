/**
 * The memory baseline: a bare process holding one SDK `Client` session to server-everything over
 * the SDK's own `StdioClientTransport`, after `tools/list`. Prints "ready" and then idles until
 * SIGTERM. Started by bench/memory.mjs, which reads this process's RSS.
 * Usage: node bench/lib/sdk-holder.mjs <server command> [args...]
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: 'bench-baseline', version: '0.0.0' }, { capabilities: {} });
await client.connect(new StdioClientTransport({ command, args, stderr: 'pipe' }));
// Drain the server's stderr like Loupe does, so neither side is blocked by a full pipe.
client.transport?.stderr?.resume?.();
const tools = await client.listTools();
process.stdout.write(`ready ${tools.tools.length} tools\n`);
process.on('SIGTERM', () => {
  client.close().then(
    () => process.exit(0),
    () => process.exit(0),
  );
});
