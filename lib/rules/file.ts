/**
 * Reading rules from text or data: a `--rules FILE` (JSON or JSONC; `{"rules": […]}` or a bare
 * list) and the workspace file's `x-mcp-loupe.rules` (docs/rules.md). Every rule is checked with
 * the zod schema of lib/model/rules.ts, plus what zod cannot see: ids unique, the `argument`
 * pattern a regular expression that cannot stall the proxy (lib/rules/match.ts prices it; an
 * argument is tested by its first PATTERN_TEXT_LIMIT characters). Ids left out are given (`r1`, `r2` …). Errors name the rule and
 * the field, in words.
 */
import { parseJsonc } from '../json/jsonc.ts';
import { readPattern } from './match.ts';
import { RuleActionSchema, RuleSchema, type Rule } from '../model/rules.ts';

export type RulesRead = { ok: true; rules: Rule[] } | { ok: false; error: string };

const ACTIONS = RuleActionSchema.options.map((option) => option.shape.type.value);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The text of a rules file. */
export function readRulesFile(text: string): RulesRead {
  const parsed = parseJsonc(text);
  if (!parsed.ok) return { ok: false, error: `The rules file is not JSON: ${parsed.error}` };
  const value = parsed.value;
  if (Array.isArray(value)) return readRules(value);
  if (isObject(value) && Array.isArray(value.rules)) return readRules(value.rules);
  return { ok: false, error: 'The rules file must be a list of rules, or an object with a "rules" list (see docs/rules.md).' };
}

/** A list of rules already parsed from JSON (a workspace file's `x-mcp-loupe.rules`). */
export function readRules(list: unknown): RulesRead {
  if (!Array.isArray(list)) return { ok: false, error: '"rules" must be a list of rules.' };
  const taken = new Set(list.flatMap((item) => (isObject(item) && typeof item.id === 'string' ? [item.id] : [])));
  let next = 1;
  const freshId = (): string => {
    while (taken.has(`r${next}`)) next++;
    taken.add(`r${next}`);
    return `r${next}`;
  };
  const rules: Rule[] = [];
  const seen = new Set<string>();
  for (const [index, item] of list.entries()) {
    const where = `Rule ${index + 1}`;
    if (!isObject(item)) return { ok: false, error: `${where} is not an object with "match" and "action".` };
    const withId = item.id === undefined ? { ...item, id: freshId() } : item;
    const checked = RuleSchema.safeParse(withId);
    if (!checked.success) return { ok: false, error: `${where}${named(withId)}: ${describeIssue(item, checked.error.issues[0])}` };
    const rule = checked.data;
    if (seen.has(rule.id)) return { ok: false, error: `${where}: the id "${rule.id}" is used by an earlier rule too; give each rule its own id.` };
    seen.add(rule.id);
    const pattern = rule.match.argument?.pattern;
    const read = pattern === undefined ? undefined : readPattern(pattern);
    if (read?.ok === false) return { ok: false, error: `${where}${named(withId)}: "match.argument.pattern" ${read.problem}` };
    rules.push(rule);
  }
  return { ok: true, rules };
}

function named(item: Record<string, unknown>): string {
  if (typeof item.name === 'string' && item.name !== '') return ` (“${item.name}”)`;
  return typeof item.id === 'string' ? ` (id "${item.id}")` : '';
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

function describeIssue(item: Record<string, unknown>, issue: Issue | undefined): string {
  if (!issue) return 'it is not a valid rule.';
  const path = issue.path.map(String).join('.');
  const action = item.action;
  if ((path === 'action' || path === 'action.type') && isObject(action) && (action.type === undefined || !ACTIONS.includes(action.type as never))) {
    return `"action.type" must be one of ${ACTIONS.join(', ')}${action.type === undefined ? '' : ` (it is ${JSON.stringify(action.type)})`}.`;
  }
  if (issue.code === 'unrecognized_keys' && issue.keys) return `${path === '' ? 'the rule' : `"${path}"`} has ${issue.keys.map((k) => `"${k}"`).join(', ')}, which Loupe does not know.`;
  if (path === '') return `${issue.message}.`;
  return `"${path}": ${issue.message}.`;
}
