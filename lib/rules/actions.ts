/**
 * The frames and words of the rule actions (lib/rules/rules.ts decides, this writes): the answer a rule
 * sends in a request's place, the permission gate's refusal, corrupted and truncated text, and the
 * name a rule is shown by.
 */
import type { Rule, RuleAction } from '../model/rules.ts';

type Id = string | number | null;

/** JSON-RPC's "Internal error": what an `error` rule answers when it names no code. */
export const DEFAULT_ERROR_CODE = -32603;

/** A rule's name, or a description of it where it has none ("deny tools/call “write_file”"). */
export function describeRule(rule: Rule): string {
  if (rule.name !== undefined && rule.name.trim() !== '') return rule.name;
  const m = rule.match;
  const parts: string[] = [rule.action.type];
  if (m.kind !== undefined && m.kind !== 'any') parts.push(`${m.kind}s`);
  parts.push(m.method ?? (m.name === undefined && m.text === undefined ? 'every frame' : ''));
  if (m.name !== undefined) parts.push(`“${m.name}”`);
  if (m.argument !== undefined) parts.push(`where ${m.argument.path} matches /${m.argument.pattern}/`);
  if (m.text !== undefined) parts.push(`containing “${m.text}”`);
  if (m.direction !== undefined && m.direction !== 'both') parts.push(m.direction);
  return parts.filter((part) => part !== '').join(' ');
}

export function replacedResult(id: Id, result: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

export function answerError(id: Id, action: Extract<RuleAction, { type: 'error' }>, ruleName: string): { raw: string; what: string } {
  const code = action.code ?? DEFAULT_ERROR_CODE;
  const message = action.message ?? `Loupe's rule “${ruleName}” answered with an error`;
  const error = { code, message, ...(action.data !== undefined ? { data: action.data } : {}) };
  return { raw: JSON.stringify({ jsonrpc: '2.0', id, error }), what: `answered it with error ${code} “${message}”` };
}

/** The permission gate's words: what was refused, why, and what the model should do instead. */
export function denialText(rule: Rule, ruleName: string, tool: string): string {
  if (rule.action.type === 'deny' && rule.action.message !== undefined) return rule.action.message;
  const argument = rule.match.argument;
  const because = argument ? ` because its argument ${argument.path} matches /${argument.pattern}/` : '';
  return `Loupe's permission gate “${ruleName}” refused this call to ${tool}${because}. The user has not allowed it; do not retry it as is — ask the user or choose another way.`;
}

/** A tool result with `isError: true` (tools#error-handling): the model reads it and can recover. */
export function denial(id: Id, rule: Rule, ruleName: string, tool: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: denialText(rule, ruleName, tool) }], isError: true } });
}

/**
 * Text that is no longer JSON, the same for the same frame: cut before its last `}` and followed
 * by words that cannot be JSON (`<` is never valid outside a string, and an open string stays open).
 */
export function corrupt(raw: string): string {
  const brace = raw.lastIndexOf('}');
  return `${brace >= 0 ? raw.slice(0, brace) : raw} <corrupted by Loupe>`;
}

/** The first `count` characters (UTF-16 code units, as JavaScript counts them); default half. */
export function truncate(raw: string, count?: number): string {
  return raw.slice(0, count ?? Math.floor(raw.length / 2));
}
