/**
 * The verdict on one smoke call (issue 10; issue 21, item 8): what a tools/call's outcome says
 * about the server. Pure, so that every rule of it is tested without a server; proxy/faces/cli/smoke.ts
 * makes the calls.
 */
import { describeFailure, isRpcError } from '../client/outcome-text.ts';
import type { SmokeCaseKind, SmokeOutcome, SmokeVerdict } from './smoke-report.ts';
import { validationIssues, type SchemaCheck } from '../schema/tool-schema.ts';
import type { LoupeError, RpcError } from '../wire/wire.ts';

export type Judgement = { outcome: SmokeOutcome; verdict: SmokeVerdict; reason: string };

/** A request's outcome as the session gives it. */
export type CallOutcome = { ok: true; result: unknown } | { ok: false; error: RpcError | LoupeError };

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The SDK's RequestTimeout (-32001), or Loupe's own. */
export const isTimeout = (e: RpcError | LoupeError): boolean => (isRpcError(e) ? e.code === -32001 : e.code === 'TIMEOUT');


/** JSON-RPC: the request was fine, the server failed on its side. */
const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;

/**
 * What a call's outcome says about the server. The arguments are made up (a path, an id that need
 * not exist), so a tool that refuses them, with `isError` or as invalid params, has behaved:
 * FAILED is kept for what is wrong with the server itself (a crash, a timeout, an internal error,
 * a result that is not one, a `structuredContent` that breaks the `outputSchema`).
 */
export function judgeCall(kind: SmokeCaseKind, outcome: CallOutcome, output: SchemaCheck | undefined): Judgement {
  const valid = kind === 'valid';
  if (!outcome.ok) {
    const error = outcome.error;
    if (isTimeout(error)) return { outcome: 'timeout', verdict: 'failed', reason: `${error.message.replace(/\.$/, '')}.` };
    if (!isRpcError(error)) return { outcome: 'loupe-error', verdict: 'failed', reason: describeFailure(error) };
    return { outcome: 'rpc-error', ...judgeRpcError(valid, error) };
  }
  const result = outcome.result;
  if (!isObj(result)) return { outcome: 'loupe-error', verdict: 'failed', reason: 'The result is not a JSON object.' };
  if (result.isError === true) {
    const said = firstText(result);
    return { outcome: 'is-error', verdict: 'passed', reason: valid ? `Refused the made-up arguments with isError (a tool's own error, not a fault): ${said}` : `Refused with isError: ${said}` };
  }
  if (!valid) return { outcome: 'ok', verdict: 'warning', reason: 'The server accepted arguments that its inputSchema does not allow.' };
  return checkOutput(output, result);
}

/**
 * A JSON-RPC error in answer to tools/call. Invalid params (-32602) is a refusal; an internal error
 * (-32603) or a protocol error (-32700 to -32600) on valid arguments is the server's fault; a code
 * of the server's own is lax (the spec reports a tool's errors as a result with `isError`).
 */
function judgeRpcError(valid: boolean, error: RpcError): Omit<Judgement, 'outcome'> {
  const said = describeFailure(error);
  if (error.code === INTERNAL_ERROR) return { verdict: 'failed', reason: said };
  if (!valid) return { verdict: 'passed', reason: `Refused: ${said}` };
  if (error.code === INVALID_PARAMS) return { verdict: 'passed', reason: `Refused the made-up arguments as invalid params: ${said}` };
  if (error.code >= -32700 && error.code <= -32600) return { verdict: 'failed', reason: said };
  return { verdict: 'warning', reason: `${said} (a tool's own error is a result with isError; a JSON-RPC error is for the protocol).` };
}

/** tools spec: a tool with an outputSchema MUST return structuredContent that conforms to it. */
function checkOutput(output: SchemaCheck | undefined, result: Obj): Judgement {
  if (output === undefined) return { outcome: 'ok', verdict: 'passed', reason: 'Answered with a result.' };
  if (!output.ok) return { outcome: 'output-invalid', verdict: 'failed', reason: `Its outputSchema cannot be used: ${output.reason}.` };
  if (result.structuredContent === undefined) return { outcome: 'output-invalid', verdict: 'failed', reason: 'It declares an outputSchema, but the result has no structuredContent.' };
  const issues = validationIssues(output, result.structuredContent);
  if (issues.length === 0) return { outcome: 'ok', verdict: 'passed', reason: 'Answered; structuredContent matches its outputSchema.' };
  const listed = issues.slice(0, 3).map((i) => `${i.path || '(root)'} ${i.message}`).join('; ');
  return { outcome: 'output-invalid', verdict: 'failed', reason: `structuredContent does not match its outputSchema: ${listed}.` };
}

function firstText(result: Obj): string {
  const block = Array.isArray(result.content) ? result.content.find((b) => isObj(b) && b.type === 'text' && typeof b.text === 'string') : undefined;
  const text = isObj(block) ? String(block.text) : '';
  return text.trim() === '' ? '(no text)' : text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
