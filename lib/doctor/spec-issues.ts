/**
 * Zod issues as the doctor says them (issue 14, lib/doctor/spec.ts): a short plain path into the
 * frame and what is wrong there (`result.tools[2].inputSchema: required`). A failed union is told
 * by the member the value was meant as — the one whose literal tag (`type`) it did not miss — or,
 * when it matches no tag, by the tags the spec allows, rather than by every member's complaints.
 */
import type { core } from 'zod';

export type Issue = core.$ZodIssue;

/**
 * Issues where the SDK is stricter than the spec: its JSON-RPC envelopes and EmptyResult are
 * `.strict()`, while the spec's Result allows any other member and JSON-RPC leaves extra members
 * alone; its date-time check (`lastModified`) is narrower than the ISO 8601 the spec asks for.
 */
function spurious(issue: Issue): boolean {
  return issue.code === 'unrecognized_keys' || (issue.code === 'invalid_format' && issue.format === 'datetime');
}

export function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out === '' ? '(frame)' : out;
}

export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let at = root;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'a number' : 'a fraction';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function describe(issue: Issue, actual: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return actual === undefined ? 'required' : `expected ${issue.expected === 'int' ? 'an integer' : issue.expected}, got ${typeName(actual)}`;
    case 'invalid_value':
      return `expected ${issue.values.map((v) => shown(v)).join(' or ')}, got ${actual === undefined ? 'nothing' : shown(actual)}`;
    case 'invalid_format':
      return `${shown(actual)} is not a valid ${issue.format}`;
    default:
      return issue.message.replace(/^Invalid input: /, '').replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
  }
}

/** The members of a union the value was meant as: those it did not fail by a literal tag (`type`). */
function unionIssues(issue: Extract<Issue, { code: 'invalid_union' }>, root: unknown, path: readonly PropertyKey[]): string[] {
  const branches = (issue.errors as Issue[][]).map((branch) => branch.filter((i) => !spurious(i)));
  if (branches.length === 0) {
    const tag = issue.discriminator;
    return [tag ? `${pathText([...path, tag])}: ${shown(valueAt(root, [...path, tag]))} is not one the spec defines` : `${pathText(path)}: matches none of the shapes the spec allows`];
  }
  if (branches.some((branch) => branch.length === 0)) return [];
  type Tag = Extract<Issue, { code: 'invalid_value' }>;
  const tags = branches.map((branch) => branch.find((i): i is Tag => i.code === 'invalid_value' && i.path.length === 1 && i.values.length === 1));
  const all = tags.every((t): t is Tag => t !== undefined);
  if (all && new Set(tags.map((t) => t.path[0])).size === 1) {
    const at = [...path, tags[0].path[0]];
    return [`${pathText(at)}: ${shown(valueAt(root, at))} is not one of ${tags.map((t) => shown(t.values[0])).join(', ')}`];
  }
  const untagged = branches.filter((_, i) => tags[i] === undefined);
  const meant = untagged.length > 0 ? untagged : branches;
  const single = meant.every((b) => b.length === 1 && b[0].code === 'invalid_type' && pathText(b[0].path) === pathText(meant[0][0].path));
  if (single) {
    const expected = [...new Set(meant.map((b) => (b[0] as Extract<Issue, { code: 'invalid_type' }>).expected))].join(' or ');
    const at = [...path, ...meant[0][0].path];
    const actual = valueAt(root, at);
    return [`${pathText(at)}: ${actual === undefined ? 'required' : `expected ${expected}, got ${typeName(actual)}`}`];
  }
  const best = meant.reduce((a, b) => (b.length < a.length ? b : a));
  return issueTexts(best, root, path);
}

export function issueTexts(issues: readonly Issue[], root: unknown, base: readonly PropertyKey[]): string[] {
  const out: string[] = [];
  for (const issue of issues) {
    if (spurious(issue)) continue;
    const path = [...base, ...issue.path];
    if (issue.code === 'invalid_union') out.push(...unionIssues(issue, root, path));
    else out.push(`${pathText(path)}: ${describe(issue, valueAt(root, path))}`);
  }
  return out;
}
