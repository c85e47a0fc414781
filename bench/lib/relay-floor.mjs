/**
 * The floor of Loupe's design, for comparison only: a bare WebSocket → stdio relay in one Node
 * process, with no SDK Client, no validation, no trace: JSON.parse and one write each way. It speaks
 * just enough of the wire protocol (lib/wire/wire.ts: snapshot, request → response) for
 * bench/lib/wire-client.mjs, and prints a URL line shaped like Loupe's.
 * Whatever Loupe does per call costs more than this; what this costs over a direct SDK Client is
 * the price of the extra process hop (browser ⇄ proxy ⇄ server) on this machine.
 * Usage: node bench/lib/relay-floor.mjs <server command> [args...]
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { WebSocketServer } from 'ws';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
child.stderr.resume();
const waiting = new Map();
let nextId = 1;
let buffer = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  buffer += chunk;
  for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (!line) continue;
    const message = JSON.parse(line);
    const resolve = waiting.get(message.id);
    if (resolve) {
      waiting.delete(message.id);
      resolve(message);
    }
  }
});
const rpc = (method, params) =>
  new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });

await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'relay-floor', version: '0' } });
child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');

const server = http.createServer();
const wss = new WebSocketServer({ server, perMessageDeflate: false });
wss.on('connection', (ws) => {
  ws.send(JSON.stringify({ type: 'snapshot', sessions: [{ id: 's1', status: 'connected' }], events: [], stats: [], primary: 's1' }));
  ws.on('message', async (data) => {
    const request = JSON.parse(data.toString());
    const started = performance.now();
    const reply = await rpc(request.method, request.params);
    const base = { type: 'response', id: request.id, session: 's1', durationMs: performance.now() - started };
    ws.send(JSON.stringify(reply.error ? { ...base, ok: false, error: reply.error } : { ...base, ok: true, result: reply.result }));
  });
});
server.listen(0, '127.0.0.1', () => console.log(`Open http://127.0.0.1:${server.address().port}/?token=floor`));
process.on('SIGTERM', () => {
  child.kill();
  process.exit(0);
});
