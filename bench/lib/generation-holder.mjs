/**
 * One bare SDK Client of a given generation over the SDK's own stdio transport, for bench/protocol.mjs:
 * `v1` (the 1.x Client, the 2025 handshake), `v2-legacy` (the v2 Client in its default legacy mode,
 * the same handshake), `v2-modern` (the v2 Client pinned to 2026-07-28). Prints
 * `ready <import ms> <connect ms>` once connected and listed, then idles (the bench reads its RSS)
 * until SIGTERM.
 * Usage: node bench/lib/generation-holder.mjs v1|v2-legacy|v2-modern <server command> [args...]
 */
const [kind, command, ...args] = process.argv.slice(2);
const importStarted = performance.now();
let client;
if (kind === 'v1') {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  client = new Client({ name: 'bench', version: '0.0.0' }, { capabilities: {} });
  client.bench = () => new StdioClientTransport({ command, args, stderr: 'pipe' });
} else {
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const versionNegotiation = kind === 'v2-modern' ? { mode: { pin: '2026-07-28' } } : { mode: 'legacy' };
  client = new Client({ name: 'bench', version: '0.0.0' }, { capabilities: {}, versionNegotiation });
  client.bench = () => new StdioClientTransport({ command, args, stderr: 'pipe' });
}
const importMs = performance.now() - importStarted;
const connectStarted = performance.now();
const transport = client.bench();
await client.connect(transport);
transport.stderr?.resume?.();
await client.listTools();
const connectMs = performance.now() - connectStarted;
process.stdout.write(`ready ${importMs.toFixed(2)} ${connectMs.toFixed(2)}\n`);

process.on('SIGTERM', () => client.close().finally(() => process.exit(0)));
