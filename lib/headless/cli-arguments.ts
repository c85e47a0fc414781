/**
 * Arguments typed on a command line (issue 10: `--tool-arg key=value`, `--prompt-args key=value`)
 * read into the JSON a request carries, and the "did you mean" of a name that does not exist.
 *
 * A value that parses as JSON is JSON (`n=5` is 5, `on=true` is true, `o={"a":1}` an object), as
 * the official inspector reads it, with one refinement: where the tool's schema says the property is
 * a string (and nothing else), the text is kept as typed, so `zip=01234` or `id=42` reach a string
 * field as strings. `key:=json` forces JSON and fails when it is not.
 */

export type ArgsResult = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** The JSON types a schema property allows, when it says (a `type` string or array; else undefined). */
function allowedTypes(inputSchema: unknown, key: string): string[] | undefined {
  const properties = (inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const property = properties && typeof properties === 'object' ? properties[key] : undefined;
  const type = (property as { type?: unknown } | undefined)?.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type) && type.every((t) => typeof t === 'string')) return type as string[];
  return undefined;
}

export function parseKeyValues(pairs: readonly string[], inputSchema?: unknown, flag = '--tool-arg'): ArgsResult {
  const value: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return { ok: false, error: `${flag} expects key=value (or key:=json), got ${JSON.stringify(pair)}.` };
    const forced = pair[eq - 1] === ':';
    const key = pair.slice(0, forced ? eq - 1 : eq);
    const text = pair.slice(eq + 1);
    if (key === '') return { ok: false, error: `${flag} ${JSON.stringify(pair)} has no key before ${forced ? ':=' : '='}.` };
    if (forced) {
      try {
        value[key] = JSON.parse(text) as unknown;
      } catch (error) {
        return { ok: false, error: `${flag} ${key}:= expects JSON, and ${JSON.stringify(text)} is not JSON (${(error as Error).message}).` };
      }
      continue;
    }
    const types = allowedTypes(inputSchema, key);
    if (types?.length === 1 && types[0] === 'string') {
      value[key] = text;
      continue;
    }
    try {
      value[key] = JSON.parse(text) as unknown;
    } catch {
      value[key] = text;
    }
  }
  return { ok: true, value };
}

/** Prompt arguments are strings by the spec (prompts/get `arguments: { [key]: string }`). */
export function parsePromptArgs(pairs: readonly string[]): ArgsResult {
  const value: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return { ok: false, error: `--prompt-args expects key=value, got ${JSON.stringify(pair)}.` };
    value[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { ok: true, value };
}

/** Levenshtein distance, capped: names longer than a few hundred characters are not worth comparing in full. */
function distance(a: string, b: string): number {
  const x = a.slice(0, 200).toLowerCase();
  const y = b.slice(0, 200).toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[y.length];
}

/** Up to `count` names nearest to `name`: those containing it first, then by edit distance. */
export function closestNames(name: string, names: readonly string[], count = 3): string[] {
  const lower = name.toLowerCase();
  return [...names]
    .map((candidate) => ({ candidate, score: candidate.toLowerCase().includes(lower) || lower.includes(candidate.toLowerCase()) ? -1 : distance(name, candidate) }))
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map((c) => c.candidate);
}

/** "No tool named X. Closest: a, b, c." — one sentence for exit code 2. */
export function unknownNameMessage(kind: string, name: string, names: readonly string[]): string {
  if (names.length === 0) return `No ${kind} named ${JSON.stringify(name)}: the server lists no ${kind}s.`;
  const closest = closestNames(name, names);
  return `No ${kind} named ${JSON.stringify(name)}. Closest: ${closest.join(', ')}${names.length > closest.length ? ` (of ${names.length})` : ''}.`;
}
