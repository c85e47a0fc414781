/**
 * The runner against a real SDK McpServer over the SDK's in-memory linked transports (no process
 * under test), through a CallPort over a real SDK Client.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { runCollection, runCollections, requestOf } from './run.ts';
import type { CallPort, CallVerdict, Collection, PortOutcome } from './types.ts';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function server(): McpServer {
  const s = new McpServer({ name: 'collections-test', version: '1.0.0' });
  s.registerTool('echo', { inputSchema: { message: z.string() } }, async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] }));
  s.registerTool(
    'add',
    { inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  s.registerTool('fail', { inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'it broke' }], isError: true }));
  s.registerTool('slow', { inputSchema: { ms: z.number() } }, async ({ ms }) => {
    await new Promise((r) => setTimeout(r, ms));
    return { content: [{ type: 'text', text: 'late' }] };
  });
  s.registerTool('progress', { inputSchema: {} }, async (_args, extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 1 } });
    return { content: [{ type: 'text', text: 'done' }] };
  });
  s.registerResource('note', new ResourceTemplate('note://{id}', { list: undefined }), {}, async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `note ${String(id)}` }] }));
  s.registerPrompt('greet', { argsSchema: { name: z.string() } }, ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello ${name}` } }] }));
  return s;
}

/** A CallPort over a real SDK Client: progress collected by the request's token, errors as values. */
async function sdkPort(): Promise<CallPort & { sent: string[] }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const s = server();
  await s.connect(serverSide);
  const client = new Client({ name: 'collections-test', version: '1.0.0' });
  await client.connect(clientSide);
  closers.push(() => Promise.all([client.close(), s.close()]));
  const sent: string[] = [];
  return {
    sent,
    async request(method, params, { timeoutMs, signal }) {
      sent.push(method);
      const notifications: PortOutcome['notifications'] = [];
      const started = performance.now();
      try {
        const result = await client.request({ method, params } as never, z.object({}).passthrough(), {
          timeout: timeoutMs,
          signal,
          onprogress: (progress) => notifications.push({ method: 'notifications/progress', params: progress }),
        });
        return { ok: true, result, durationMs: performance.now() - started, notifications };
      } catch (error) {
        if (!(error instanceof McpError)) throw error;
        return { ok: false, error: { code: error.code, message: error.message, data: error.data }, durationMs: performance.now() - started, notifications };
      }
    },
    async outputSchemaOf(tool) {
      const { tools } = await client.listTools();
      return tools.find((t) => t.name === tool)?.outputSchema;
    },
  };
}

const statuses = (calls: CallVerdict[]) => calls.map((c) => [c.call, c.status]);

describe('runCollection', () => {
  it('runs the calls in order, fills variables and extracts, and passes what holds', async () => {
    const port = await sdkPort();
    const collection: Collection = {
      name: 'basics',
      variables: { who: 'Ada', a: 2 },
      calls: [
        { name: 'echo', kind: 'tool', target: 'echo', arguments: { message: 'hi {{who}}' }, assert: [{ isError: false }, { path: '$.content[0].text', equals: 'Echo: hi Ada' }], extract: { said: '$.content[0].text' } },
        { name: 'add', kind: 'tool', target: 'add', arguments: { a: '{{a}}', b: 3 }, assert: [{ outputSchema: true }, { path: '$.structuredContent.sum', type: 'integer' }, { path: '$.structuredContent.sum', equals: 5 }], extract: { sum: '$.structuredContent.sum' } },
        { name: 'again', kind: 'tool', target: 'add', arguments: { a: '{{sum}}', b: '{{sum}}' }, assert: [{ path: '$.structuredContent.sum', equals: 10 }] },
        { name: 'echo said', kind: 'tool', target: 'echo', arguments: { message: '{{said}}' }, assert: [{ textContains: 'Echo: Echo: hi Ada' }, { durationUnderMs: 5000 }] },
      ],
    };
    const seen: string[] = [];
    const verdict = await runCollection(collection, port, { onCall: (v) => seen.push(v.call) });
    expect(statuses(verdict.calls)).toEqual([['echo', 'passed'], ['add', 'passed'], ['again', 'passed'], ['echo said', 'passed']]);
    expect(seen).toEqual(['echo', 'add', 'again', 'echo said']);
    expect(verdict.counts).toEqual({ passed: 4, failed: 0, error: 0, skipped: 0 });
    expect(verdict.calls[1]).toMatchObject({ request: { method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } }, extracted: { sum: 5 } });
    expect(verdict.calls[2].request?.params).toEqual({ name: 'add', arguments: { a: 5, b: 5 } });
    expect(verdict.calls[0].assertions.map((a) => a.label)).toEqual(['the result is not an error', '$.content[0].text equals "Echo: hi Ada"']);
  });

  it('fails a call whose answer differs, with the path, the expected and the actual value', async () => {
    const verdict = await runCollection({ name: 'c', calls: [{ name: 'echo', kind: 'tool', target: 'echo', arguments: { message: 'ho' }, assert: [{ path: '$.content[0].text', equals: 'Echo: hi' }] }] }, await sdkPort());
    expect(verdict.calls[0]).toMatchObject({ status: 'failed', assertions: [{ ok: false, path: '$.content[0].text', expected: 'Echo: hi', actual: 'Echo: ho', message: 'at $.content[0].text expected "Echo: hi", found "Echo: ho"' }] });
    expect(verdict.counts.failed).toBe(1);
  });

  it('an error answer fails the call unless an isError assertion expects it', async () => {
    const port = await sdkPort();
    const verdict = await runCollection({
      name: 'errors',
      calls: [
        { name: 'unknown method', kind: 'request', target: 'no/such/method' },
        { name: 'unknown method, expected', kind: 'request', target: 'no/such/method', assert: [{ isError: true }, { path: '$.code', equals: -32601 }] },
        { name: 'isError result', kind: 'tool', target: 'fail', assert: [{ textContains: 'broke' }] },
        { name: 'isError result, expected', kind: 'tool', target: 'fail', assert: [{ isError: true }] },
      ],
    }, port);
    expect(statuses(verdict.calls)).toEqual([['unknown method', 'failed'], ['unknown method, expected', 'passed'], ['isError result', 'failed'], ['isError result, expected', 'passed']]);
    expect(verdict.calls[0].assertions[0]).toMatchObject({ ok: false, label: 'the call answered without an error (no isError assertion expects one)', message: 'the call answered with an error: the JSON-RPC error -32601 "MCP error -32601: Method not found"; add { "isError": true } if that is what it should do' });
    expect(verdict.calls[2].assertions.map((a) => a.ok)).toEqual([false, true]);
    expect(verdict.calls[2].assertions[0].message).toBe('the call answered with an error: isError: true ("it broke"); add { "isError": true } if that is what it should do');
  });

  it('a missing variable is an error naming it; an extract that found nothing says so at the call that needed it', async () => {
    const verdict = await runCollection({
      name: 'vars',
      calls: [
        { name: 'first', kind: 'tool', target: 'echo', arguments: { message: 'x' }, extract: { id: '$.structuredContent.id' } },
        { name: 'uses id', kind: 'resource', target: 'note://{{id}}' },
        { name: 'uses nothing known', kind: 'tool', target: 'echo', arguments: { message: '{{ghost}}' } },
      ],
    }, await sdkPort());
    expect(statuses(verdict.calls)).toEqual([['first', 'passed'], ['uses id', 'error'], ['uses nothing known', 'error']]);
    expect(verdict.calls[0].notes).toEqual(['{{id}}: $.structuredContent.id found nothing in the answer.']);
    expect(verdict.calls[1].reason).toContain('{{id}}: the call "first" extracts it with $.structuredContent.id, which found nothing in its answer.');
    expect(verdict.calls[2].reason).toMatch(/^The call "uses nothing known" uses \{\{ghost\}\}, which no variable gives/);
  });

  it('--var wins over the collection’s variables and over extracts', async () => {
    const verdict = await runCollection({
      name: 'v',
      variables: { who: 'file' },
      calls: [
        { name: 'e', kind: 'tool', target: 'echo', arguments: { message: 'x' }, extract: { who: '$.content[0].text' } },
        { name: 'f', kind: 'tool', target: 'echo', arguments: { message: '{{who}}' }, assert: [{ path: '$.content[0].text', equals: 'Echo: cli' }] },
      ],
    }, await sdkPort(), { variables: { who: 'cli' } });
    expect(statuses(verdict.calls)).toEqual([['e', 'passed'], ['f', 'passed']]);
  });

  it('sends resources, prompts and raw requests by their methods', async () => {
    const port = await sdkPort();
    const verdict = await runCollection({
      name: 'kinds',
      calls: [
        { name: 'read', kind: 'resource', target: 'note://7', assert: [{ path: '$.contents[0].text', equals: 'note 7' }, { textContains: 'note 7' }] },
        { name: 'prompt', kind: 'prompt', target: 'greet', arguments: { name: 'Ada' }, assert: [{ path: '$.messages[0].content.text', equals: 'Hello Ada' }] },
        { name: 'ping', kind: 'request', target: 'ping', assert: [{ path: '$', equals: {} }] },
        { name: 'list', kind: 'request', target: 'tools/list', params: {}, assert: [{ path: '$.tools[*].name', type: 'string' }] },
      ],
    }, port);
    expect(statuses(verdict.calls)).toEqual([['read', 'passed'], ['prompt', 'passed'], ['ping', 'passed'], ['list', 'passed']]);
    expect(port.sent).toEqual(['resources/read', 'prompts/get', 'ping', 'tools/list']);
    expect(requestOf('prompt', { target: 'p' })).toEqual({ method: 'prompts/get', params: { name: 'p' } });
  });

  it('sees the progress a call reports', async () => {
    const verdict = await runCollection({ name: 'n', calls: [{ name: 'p', kind: 'tool', target: 'progress', assert: [{ notification: 'notifications/progress' }] }] }, await sdkPort());
    expect(verdict.calls[0].status).toBe('passed');
  });

  it('a call that times out, or whose port throws, is an error; the run goes on', async () => {
    const port = await sdkPort();
    const verdict = await runCollection({ name: 't', calls: [{ name: 'slow', kind: 'tool', target: 'slow', arguments: { ms: 2000 }, timeoutMs: 50 }, { name: 'next', kind: 'tool', target: 'echo', arguments: { message: 'x' } }] }, port);
    expect(statuses(verdict.calls)).toEqual([['slow', 'error'], ['next', 'passed']]);
    expect(verdict.calls[0].reason).toBe('No answer within 50 ms.');
    const throwing: CallPort = { request: () => Promise.reject(new Error('the socket closed')), outputSchemaOf: async () => undefined };
    const thrown = await runCollection({ name: 't', calls: [{ name: 'x', kind: 'request', target: 'ping' }] }, throwing);
    expect(thrown.calls[0]).toMatchObject({ status: 'error', reason: 'The call could not be made: the socket closed' });
  });

  it('a port that never answers is given up on after the limit', async () => {
    const silent: CallPort = { request: () => new Promise(() => undefined), outputSchemaOf: async () => undefined };
    const verdict = await runCollection({ name: 's', calls: [{ name: 'x', kind: 'request', target: 'ping', timeoutMs: 10 }] }, silent);
    expect(verdict.calls[0]).toMatchObject({ status: 'error', reason: 'No answer within 10 ms.' });
  }, 10_000);

  it('after a stop, the call in flight and the rest are skipped', async () => {
    const port = await sdkPort();
    const controller = new AbortController();
    const collection: Collection = {
      name: 'stop',
      calls: [
        { name: 'one', kind: 'tool', target: 'echo', arguments: { message: '1' } },
        { name: 'slow', kind: 'tool', target: 'slow', arguments: { ms: 5000 } },
        { name: 'three', kind: 'tool', target: 'echo', arguments: { message: '3' } },
      ],
    };
    const run = runCollection(collection, port, { signal: controller.signal, onCall: (v) => v.call === 'one' && setTimeout(() => controller.abort(), 50) });
    const verdict = await run;
    expect(statuses(verdict.calls)).toEqual([['one', 'passed'], ['slow', 'skipped'], ['three', 'skipped']]);
    expect(verdict.calls[1].reason).toBe('The run was stopped while this call waited for its answer.');
    expect(verdict.calls[2].reason).toBe('The run was stopped before this call.');
    expect(verdict.counts).toEqual({ passed: 1, failed: 0, error: 0, skipped: 2 });
  });

  it('only: runs the calls named, and says why the others did not run', async () => {
    const port = await sdkPort();
    const verdict = await runCollection({
      name: 'only',
      calls: [
        { name: 'a', kind: 'tool', target: 'echo', arguments: { message: '1' }, extract: { x: '$.content[0].text' } },
        { name: 'b', kind: 'tool', target: 'echo', arguments: { message: '{{x}}' } },
      ],
    }, port, { only: ['b'] });
    expect(statuses(verdict.calls)).toEqual([['a', 'skipped'], ['b', 'error']]);
    expect(verdict.calls[0].reason).toBe('Not chosen for this run.');
    expect(verdict.calls[1].reason).toContain('{{x}}: the call "a", which extracts it, did not run.');
    expect(port.sent).toEqual([]);
  });
});

describe('runCollections', () => {
  it('runs each collection with its own variables', async () => {
    const port = await sdkPort();
    const verdicts = await runCollections([
      { name: 'one', variables: { m: 'a' }, calls: [{ name: 'e', kind: 'tool', target: 'echo', arguments: { message: '{{m}}' }, assert: [{ path: '$.content[0].text', equals: 'Echo: a' }], extract: { leak: '$.content[0].text' } }] },
      { name: 'two', calls: [{ name: 'e', kind: 'tool', target: 'echo', arguments: { message: '{{leak}}' } }] },
    ], port);
    expect(verdicts.map((v) => [v.name, statuses(v.calls)])).toEqual([['one', [['e', 'passed']]], ['two', [['e', 'error']]]]);
  });
});
