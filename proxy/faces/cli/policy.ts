/**
 * How the headless modes answer what a server asks of its client (issue 10): `--sample TEXT` is
 * the reply to every sampling request (without it sampling is refused with an error that says how
 * to allow it), `--elicit accept-defaults|decline|cancel` answers elicitations (default: decline),
 * and `--root URI` makes the roots list. No TTY and no prompts: it works the same in CI.
 */
import { defaultsFor } from '../../../lib/schema/synth.ts';
import type { ServerRequest } from '../../../lib/wire/wire.ts';
import type { ServerRequestPolicy } from './face-session.ts';
import type { HeadlessOptions } from '../../command-line/types.ts';
import type { ServerRequestOutcome } from '../../session/server-requests.ts';

/** JSON-RPC "invalid request": the client will not do this (the SDK uses it for refused sampling too). */
const REFUSED = -32600;

export function headlessPolicy(options: Pick<HeadlessOptions, 'sample' | 'elicit'>, log?: (line: string) => void): ServerRequestPolicy {
  return (request: ServerRequest): ServerRequestOutcome => {
    const outcome = answer(options, request);
    log?.(`the server asked for ${request.method}: ${outcome.ok ? 'answered ' + summary(outcome.result) : `refused (${outcome.error.message})`}`);
    return outcome;
  };
}

function answer(options: Pick<HeadlessOptions, 'sample' | 'elicit'>, request: ServerRequest): ServerRequestOutcome {
  const params = (request.params ?? {}) as Record<string, unknown>;
  if (request.method === 'sampling/createMessage') {
    if (options.sample === undefined) return { ok: false, error: { code: REFUSED, message: 'Sampling was refused: mcp-loupe runs without a model here (give --sample "<reply text>" to answer sampling requests).' } };
    return { ok: true, result: { role: 'assistant', content: { type: 'text', text: options.sample }, model: 'mcp-loupe-cli', stopReason: 'endTurn' } };
  }
  if (request.method === 'elicitation/create') {
    const action = options.elicit ?? 'decline';
    if (action !== 'accept-defaults') return { ok: true, result: { action } };
    // URL mode asks the user to visit a page: accepting says they did (nothing is opened here).
    if (params.mode === 'url') return { ok: true, result: { action: 'accept' } };
    return { ok: true, result: { action: 'accept', content: defaultsFor(params.requestedSchema) } };
  }
  return { ok: false, error: { code: -32601, message: `mcp-loupe does not answer ${request.method}.` } };
}

function summary(result: Record<string, unknown>): string {
  const text = JSON.stringify(result);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
