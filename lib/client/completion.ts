/**
 * `completion/complete` (spec: server/utilities/completion): the request for one argument of a
 * prompt or a resource template, and its untrusted result.
 * https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion
 */

export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export interface Completions {
  values: string[];
  /** How many the server has in all, when it said. */
  total?: number;
  hasMore: boolean;
  /** Something odd about the result (shown, the usable values are still offered). */
  problem?: string;
}

/** Values offered at most (the spec caps a response at 100; a server may not). */
export const MAX_COMPLETIONS = 100;

/** Params of `completion/complete`; the other arguments filled in so far go in `context`. */
export function completionParams(ref: CompletionRef, name: string, value: string, others: Readonly<Record<string, string>>): Record<string, unknown> {
  const context: Record<string, string> = {};
  for (const [key, v] of Object.entries(others)) if (key !== name && v !== '') context[key] = v;
  return { ref, argument: { name, value }, ...(Object.keys(context).length > 0 ? { context: { arguments: context } } : {}) };
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A `completion/complete` result → values to offer; never throws. */
export function readCompletions(result: unknown): Completions {
  const completion = isObj(result) ? result.completion : undefined;
  if (!isObj(completion) || !Array.isArray(completion.values)) return { values: [], hasMore: false, problem: 'the result has no "completion.values" array' };
  const strings = completion.values.filter((v): v is string => typeof v === 'string');
  const unique = [...new Set(strings)];
  const out: Completions = { values: unique.slice(0, MAX_COMPLETIONS), hasMore: completion.hasMore === true };
  if (typeof completion.total === 'number') out.total = completion.total;
  const notes: string[] = [];
  if (strings.length < completion.values.length) notes.push(`${completion.values.length - strings.length} values were not strings`);
  if (unique.length > MAX_COMPLETIONS) notes.push(`${unique.length} values sent; the first ${MAX_COMPLETIONS} are offered`);
  if (notes.length > 0) out.problem = notes.join('; ');
  return out;
}
