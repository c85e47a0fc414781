/**
 * `{{name}}` in a call's `target`, `arguments` and `params` (issue 27; schema.ts says where values
 * come from). A string that is only `{{name}}` takes the value with its type (`{{count}}` → 3), so a
 * number taken from one answer can be sent as a number in the next call; inside a longer string the
 * value's text is put in (a string as it is, anything else as JSON). Keys are never filled.
 */
import { stringifySafe } from '../json/safe-json.ts';
import type { CollectionCall } from './schema.ts';

/** A name is letters, digits, `_`, `-` and `.`, starting with a letter or `_`; spaces inside the braces are allowed. */
const ONE = /^\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}$/;
const ANY = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;
/** Below this depth values are sent as written (nothing a person writes is this deep). */
const MAX_DEPTH = 64;

export interface FilledCall {
  target: string;
  arguments?: Record<string, unknown>;
  params?: Record<string, unknown>;
}

export type Filled = { ok: true; call: FilledCall } | { ok: false; error: string; missing: string[] };

/**
 * The call with its variables filled in, or the sentence naming what is missing. `why` may say
 * where a missing variable was meant to come from (an earlier call's extract that found nothing).
 */
export function fillCall(call: CollectionCall, variables: Readonly<Record<string, unknown>>, why: Readonly<Record<string, string>> = {}): Filled {
  const missing = new Set<string>();
  const has = (name: string) => Object.hasOwn(variables, name);
  const text = (value: string): unknown => {
    const whole = ONE.exec(value);
    if (whole) {
      if (has(whole[1])) return variables[whole[1]];
      missing.add(whole[1]);
      return value;
    }
    return value.replace(ANY, (written, name: string) => {
      if (!has(name)) {
        missing.add(name);
        return written;
      }
      const v = variables[name];
      return typeof v === 'string' ? v : (stringifySafe(v) ?? String(v));
    });
  };
  const targetValue = text(call.target);
  const target = typeof targetValue === 'string' ? targetValue : (stringifySafe(targetValue) ?? String(targetValue));
  const args = call.arguments === undefined ? undefined : (fill(call.arguments, text, 0) as Record<string, unknown>);
  const params = call.params === undefined ? undefined : (fill(call.params, text, 0) as Record<string, unknown>);
  if (missing.size > 0) return { ok: false, error: missingSentence(call.name, [...missing], why), missing: [...missing] };
  return { ok: true, call: { target, ...(args !== undefined ? { arguments: args } : {}), ...(params !== undefined ? { params } : {}) } };
}

function fill(value: unknown, text: (s: string) => unknown, depth: number): unknown {
  if (typeof value === 'string') return text(value);
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => fill(v, text, depth + 1));
  const out: Record<string, unknown> = {};
  // defineProperty: a key "__proto__" stays a key.
  for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: fill(v, text, depth + 1), enumerable: true, writable: true, configurable: true });
  return out;
}

function missingSentence(call: string, names: string[], why: Readonly<Record<string, string>>): string {
  const list = names.map((n) => `{{${n}}}`).join(', ');
  const reasons = names.filter((n) => why[n] !== undefined).map((n) => ` {{${n}}}: ${why[n]}.`);
  const one = names.length === 1;
  return `The call ${JSON.stringify(call)} uses ${list}, which no variable gives${one ? '' : ' (any of them)'}: set ${one ? 'it' : 'them'} in the collection's "variables", an earlier call's "extract", or with --var NAME=VALUE.${reasons.join('')}`;
}

/** The names a call uses, in order of first use (the page shows them beside the call). */
export function variablesOf(call: CollectionCall): string[] {
  const names = new Set<string>();
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === 'string') for (const m of value.matchAll(ANY)) names.add(m[1]);
    else if (depth < MAX_DEPTH && value !== null && typeof value === 'object') for (const v of Object.values(value)) visit(v, depth + 1);
  };
  visit(call.target, 0);
  visit(call.arguments, 0);
  visit(call.params, 0);
  return [...names];
}
