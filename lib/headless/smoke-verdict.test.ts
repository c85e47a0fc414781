import { describe, expect, it } from 'vitest';
import { judgeCall, type CallOutcome } from './smoke-verdict.ts';
import { parseTools } from '../schema/tool-schema.ts';

const result = (value: unknown): CallOutcome => ({ ok: true, result: value });
const rpc = (code: number, message = 'no'): CallOutcome => ({ ok: false, error: { code, message } });
const isError = result({ isError: true, content: [{ type: 'text', text: 'ENOENT: no such file or directory, open example' }] });

describe('judgeCall: made-up arguments', () => {
  it('a refusal is how a tool behaves: isError and invalid params pass', () => {
    expect(judgeCall('valid', isError, undefined)).toEqual({ outcome: 'is-error', verdict: 'passed', reason: "Refused the made-up arguments with isError (a tool's own error, not a fault): ENOENT: no such file or directory, open example" });
    expect(judgeCall('valid', rpc(-32602, 'path outside allowed directories'), undefined)).toEqual({ outcome: 'rpc-error', verdict: 'passed', reason: 'Refused the made-up arguments as invalid params: JSON-RPC error -32602: path outside allowed directories' });
    expect(judgeCall('valid', result({ content: [] }), undefined)).toMatchObject({ outcome: 'ok', verdict: 'passed' });
  });

  it('what is wrong with the server fails: an internal or protocol error, a timeout, a result that is not one', () => {
    expect(judgeCall('valid', rpc(-32603, 'boom'), undefined)).toEqual({ outcome: 'rpc-error', verdict: 'failed', reason: 'JSON-RPC error -32603: boom' });
    expect(judgeCall('valid', rpc(-32601), undefined)).toMatchObject({ verdict: 'failed' });
    expect(judgeCall('valid', rpc(-32001, 'Request timed out'), undefined)).toEqual({ outcome: 'timeout', verdict: 'failed', reason: 'Request timed out.' });
    expect(judgeCall('valid', { ok: false, error: { code: 'TIMEOUT', message: 'no answer within 10 ms.' } }, undefined)).toMatchObject({ outcome: 'timeout', verdict: 'failed' });
    expect(judgeCall('valid', result([1]), undefined)).toMatchObject({ outcome: 'loupe-error', verdict: 'failed' });
  });

  it('an error code of the server’s own is lax, not broken', () => {
    expect(judgeCall('valid', rpc(-32000, 'widget store closed'), undefined)).toEqual({ outcome: 'rpc-error', verdict: 'warning', reason: "JSON-RPC error -32000: widget store closed (a tool's own error is a result with isError; a JSON-RPC error is for the protocol)." });
  });

  it('checks structuredContent against the outputSchema', () => {
    const [tool] = parseTools([{ name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } }]).tools;
    expect(judgeCall('valid', result({ content: [], structuredContent: { n: 1 } }), tool.output)).toMatchObject({ outcome: 'ok', verdict: 'passed' });
    expect(judgeCall('valid', result({ content: [], structuredContent: { n: 'x' } }), tool.output)).toMatchObject({ outcome: 'output-invalid', verdict: 'failed' });
    expect(judgeCall('valid', result({ content: [] }), tool.output)).toMatchObject({ outcome: 'output-invalid', verdict: 'failed' });
  });
});

describe('judgeCall: negative cases', () => {
  it('a refusal passes, acceptance warns, an internal error fails', () => {
    expect(judgeCall('wrong-type', isError, undefined)).toMatchObject({ outcome: 'is-error', verdict: 'passed', reason: expect.stringMatching(/^Refused with isError: /) });
    expect(judgeCall('missing-required', rpc(-32602), undefined)).toEqual({ outcome: 'rpc-error', verdict: 'passed', reason: 'Refused: JSON-RPC error -32602: no' });
    expect(judgeCall('empty', result({ content: [] }), undefined)).toMatchObject({ outcome: 'ok', verdict: 'warning' });
    expect(judgeCall('empty', rpc(-32603, 'TypeError: cannot read properties of undefined'), undefined)).toMatchObject({ verdict: 'failed' });
  });
});
