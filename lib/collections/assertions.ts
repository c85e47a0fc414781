/**
 * One assertion checked against one answer (issue 27). A verdict carries a label a person reads
 * (`$.content[0].text equals "Echo: hi"`) and, when it failed, where, what was expected, what was
 * there, and the sentence (`at $.content[0].text expected "Echo: hi", found "Echo: ho"`).
 *
 * Meanings (schema.ts lists the shapes):
 * - `$` is the call's `result`, or its JSON-RPC `error` object when it failed (as `--verify --ignore`).
 * - A path that selects several values (`[*]`, `..`) must hold for every one of them, and must select
 *   at least one; `exists` asks only whether it selects any.
 * - `isError: true` holds for a tool result with `isError: true` and for a JSON-RPC error answer.
 * - `matches` compiles with the interception rules' check (lib/rules/match.ts): a pattern that could
 *   backtrack for seconds is refused when the file is read, and text longer than the length the
 *   check prices (4,096 characters) is not tested: the assertion fails and says so. A server chooses
 *   that text, and the page runs collections on its only thread.
 * - `outputSchema` validates `structuredContent` with Ajv, loaded with the first such assertion
 *   (start-up must not load Ajv), through lib/schema/tool-schema.ts, the same check `--smoke` makes.
 */
import { evaluatePath, formatPath, jsonEqual, parsePath, type PathKey, type PathMatch } from '../json/json-path.ts';
import { stringifySafe } from '../json/safe-json.ts';
import { PATTERN_TEXT_LIMIT, readPattern } from '../rules/match.ts';
import type { Assertion, AssertionVerdict, PortOutcome } from './types.ts';

export interface AssertionContext {
  outcome: PortOutcome;
  /** The tool's `outputSchema` as the server lists it, for `{ "outputSchema": true }` (undefined: none). */
  outputSchema?: unknown;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const MAX_SHOWN = 200;

/** A value as short JSON text for a sentence. */
export function shownValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = stringifySafe(value) ?? String(value);
  return text.length <= MAX_SHOWN ? text : `${text.slice(0, MAX_SHOWN)}… (${text.length} characters)`;
}

/** What `$` is for an answer: its result, or its error object. */
export function rootOf(outcome: PortOutcome): unknown {
  return outcome.ok ? outcome.result : outcome.error;
}

/** Whether an answer is an error, and which: a JSON-RPC error, or a tool result with `isError: true`. */
export function errorKindOf(outcome: PortOutcome): 'rpc' | 'tool' | undefined {
  if (!outcome.ok) return 'rpc';
  return isObject(outcome.result) && outcome.result.isError === true ? 'tool' : undefined;
}

/** The error an answer carries, in words: `the JSON-RPC error -32602 "…"` or `isError: true ("…")`. */
export function describeAnswerError(outcome: PortOutcome): string {
  if (!outcome.ok) return `the JSON-RPC error ${outcome.error?.code ?? '?'} ${shownValue(outcome.error?.message ?? '')}`;
  const text = textsOf(outcome.result)[0];
  return `isError: true${text !== undefined ? ` (${shownValue(text)})` : ''}`;
}

const TYPE_WORDS: Record<string, string> = { string: 'a string', number: 'a number', integer: 'an integer', boolean: 'a boolean', object: 'an object', array: 'an array', null: 'null' };

/** The one line a person reads for an assertion. */
export function assertionLabel(a: Assertion): string {
  if ('isError' in a) return a.isError ? 'the result is an error' : 'the result is not an error';
  if ('equals' in a) return `${a.path} equals ${shownValue(a.equals)}`;
  if ('matches' in a) return `${a.path} matches /${a.matches}/`;
  if ('type' in a) return `${a.path} is ${TYPE_WORDS[a.type]}`;
  if ('exists' in a) return a.exists ? `${a.path} exists` : `${a.path} is absent`;
  if ('outputSchema' in a) return "structuredContent matches the tool's outputSchema";
  if ('textContains' in a) return `a text content contains ${shownValue(a.textContains)}`;
  if ('durationUnderMs' in a) return `answered in under ${a.durationUnderMs} ms`;
  if ('notification' in a) return `a ${a.notification} notification came`;
  return a.refusedByRule === true ? 'refused by a rule' : `refused by the rule ${shownValue(a.refusedByRule)}`;
}

type Judged = Omit<AssertionVerdict, 'assertion' | 'label'>;
const pass: Judged = { ok: true };
const failAt = (path: string | undefined, expected: unknown, actual: unknown, message: string): Judged => ({ ok: false, ...(path !== undefined ? { path } : {}), expected, actual, message });

/** Checks one assertion against one answer. Never throws: a bad path or pattern is a failed verdict with the reader's sentence. */
export async function checkAssertion(a: Assertion, ctx: AssertionContext): Promise<AssertionVerdict> {
  const label = assertionLabel(a);
  const outcome = ctx.outcome;
  let verdict: Judged;
  if (!outcome.ok && typeof outcome.error?.code === 'string') {
    verdict = failAt(undefined, undefined, undefined, `no answer to check: ${outcome.error.message}`);
  } else if ('isError' in a) verdict = checkIsError(a.isError, outcome);
  else if ('path' in a) verdict = checkPath(a, rootOf(outcome));
  else if ('outputSchema' in a) verdict = await checkOutputSchema(ctx);
  else if ('textContains' in a) verdict = checkText(a.textContains, outcome);
  else if ('durationUnderMs' in a) {
    verdict = outcome.durationMs < a.durationUnderMs ? pass : failAt(undefined, a.durationUnderMs, outcome.durationMs, `took ${Math.round(outcome.durationMs)} ms, expected under ${a.durationUnderMs} ms`);
  } else if ('notification' in a) verdict = checkNotification(a.notification, outcome);
  else verdict = checkRefusal(a.refusedByRule, outcome);
  return { assertion: a, label, ...verdict };
}

function checkIsError(expected: boolean, outcome: PortOutcome): Judged {
  const kind = errorKindOf(outcome);
  if ((kind !== undefined) === expected) return pass;
  if (expected) return failAt(undefined, true, false, 'expected an error, found a result without isError');
  return failAt(undefined, false, true, `expected no error, found ${describeAnswerError(outcome)}`);
}

type PathAssertion = Extract<Assertion, { path: string }>;

function checkPath(a: PathAssertion, root: unknown): Judged {
  const parsed = parsePath(a.path);
  if (!parsed.ok) return failAt(a.path, undefined, undefined, parsed.error);
  const found = evaluatePath(parsed.path, root);
  if ('exists' in a) {
    if ((found.length > 0) === a.exists) return pass;
    return a.exists ? failAt(a.path, true, undefined, `at ${a.path} expected a value, found nothing`) : failAt(formatPath(found[0].keys), undefined, found[0].value, `at ${formatPath(found[0].keys)} expected nothing, found ${shownValue(found[0].value)}`);
  }
  const expected = 'equals' in a ? a.equals : 'matches' in a ? `/${a.matches}/` : TYPE_WORDS[a.type];
  const wanted = 'equals' in a ? shownValue(a.equals) : 'matches' in a ? `text matching /${a.matches}/` : TYPE_WORDS[a.type];
  if (found.length === 0) return failAt(a.path, expected, undefined, `at ${a.path} expected ${wanted}, found nothing`);
  const test = 'equals' in a ? equalsTest(a.equals) : 'matches' in a ? matchesTest(a.matches) : typeTest(a.type);
  for (const m of found) {
    const problem = test(m);
    if (problem !== undefined) return failAt(formatPath(m.keys), expected, m.value, `at ${formatPath(m.keys)} ${problem}`);
  }
  return pass;
}

/** A test of one selected value: undefined when it holds, else the rest of the sentence after `at PATH`. */
type ValueTest = (m: PathMatch) => string | undefined;

const equalsTest = (expected: unknown): ValueTest => (m) => (jsonEqual(m.value, expected) ? undefined : `expected ${shownValue(expected)}, found ${shownValue(m.value)}`);

function matchesTest(pattern: string): ValueTest {
  const read = readPattern(pattern);
  return (m) => {
    if (!read.ok) return `the pattern ${shownValue(pattern)} ${read.problem}`;
    const v = m.value;
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return `expected text matching /${pattern}/, found ${shownValue(v)}`;
    const text = String(v);
    if (text.length > PATTERN_TEXT_LIMIT) return `the text is ${text.length} characters long; a pattern is tested on text of at most ${PATTERN_TEXT_LIMIT} (check long text with textContains or equals)`;
    return read.regexp.test(text) ? undefined : `expected text matching /${pattern}/, found ${shownValue(v)}`;
  };
}

/** The JSON type of a value; numbers that are whole are also integers. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

function typeTest(type: string): ValueTest {
  return (m) => {
    const actual = jsonTypeOf(m.value);
    const holds = type === 'integer' ? typeof m.value === 'number' && Number.isInteger(m.value) : actual === type;
    return holds ? undefined : `expected ${TYPE_WORDS[type]}, found ${TYPE_WORDS[actual] ?? actual} (${shownValue(m.value)})`;
  };
}

async function checkOutputSchema(ctx: AssertionContext): Promise<Judged> {
  const { outcome, outputSchema } = ctx;
  if (outputSchema === undefined) return failAt(undefined, undefined, undefined, 'the tool declares no outputSchema to validate against');
  const structured = outcome.ok && isObject(outcome.result) ? outcome.result.structuredContent : undefined;
  if (structured === undefined) return failAt('$.structuredContent', undefined, undefined, "the result has no structuredContent to validate against the tool's outputSchema");
  const { checkInputSchema, validationIssues } = await import('../schema/tool-schema.ts');
  const check = checkInputSchema(outputSchema, 'outputSchema');
  if (!check.ok) return failAt(undefined, undefined, undefined, `the tool's outputSchema cannot be used: ${check.reason}`);
  const issues = validationIssues(check, structured);
  if (issues.length === 0) return pass;
  const first = issues[0];
  const keys = pointerKeys(first.path, structured);
  const where = formatPath(['structuredContent', ...keys]);
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return failAt(where, 'valid by the outputSchema', valueAt(structured, keys), `at ${where} structuredContent breaks the tool's outputSchema: ${first.message}${more}`);
}

/** A JSON pointer (`/a/0`) into `value` as path keys: a segment is an index where the value there is an array. */
function pointerKeys(pointer: string, value: unknown): PathKey[] {
  const keys: PathKey[] = [];
  let node = value;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const key: PathKey = Array.isArray(node) && /^\d+$/.test(segment) ? Number(segment) : segment;
    keys.push(key);
    node = isObject(node) || Array.isArray(node) ? (node as Record<PathKey, unknown>)[key] : undefined;
  }
  return keys;
}

function valueAt(value: unknown, keys: readonly PathKey[]): unknown {
  let node = value;
  for (const key of keys) node = isObject(node) || Array.isArray(node) ? (node as Record<PathKey, unknown>)[key] : undefined;
  return node;
}

/**
 * The text contents of an answer, in order: a tool's `content[].text`, a resource's
 * `contents[].text`, a prompt's `messages[].content.text` (one content or a list).
 */
export function textsOf(result: unknown): string[] {
  if (!isObject(result)) return [];
  const out: string[] = [];
  const take = (item: unknown) => {
    if (isObject(item) && typeof item.text === 'string') out.push(item.text);
  };
  if (Array.isArray(result.content)) result.content.forEach(take);
  if (Array.isArray(result.contents)) result.contents.forEach(take);
  if (Array.isArray(result.messages)) {
    for (const message of result.messages) {
      const content = isObject(message) ? message.content : undefined;
      if (Array.isArray(content)) content.forEach(take);
      else take(content);
    }
  }
  return out;
}

function checkText(needle: string, outcome: PortOutcome): Judged {
  const texts = textsOf(outcome.ok ? outcome.result : undefined);
  if (texts.some((t) => t.includes(needle))) return pass;
  if (texts.length === 0) return failAt(undefined, needle, undefined, `expected a text content containing ${shownValue(needle)}, found no text content`);
  return failAt(undefined, needle, texts[0], `expected a text content containing ${shownValue(needle)}, found ${texts.length === 1 ? '' : `${texts.length} texts, the first `}${shownValue(texts[0])}`);
}

function checkNotification(method: string, outcome: PortOutcome): Judged {
  if (outcome.notifications.some((n) => n.method === method)) return pass;
  const came = [...new Set(outcome.notifications.map((n) => n.method))];
  return failAt(undefined, method, came, `expected a ${method} notification while the call ran, found ${came.length === 0 ? 'none' : came.join(', ')}`);
}

function checkRefusal(rule: string | true, outcome: PortOutcome): Judged {
  const by = outcome.refusedByRule;
  if (by !== undefined && (rule === true || by === rule)) return pass;
  const expected = rule === true ? 'a refusal by a rule' : `a refusal by the rule ${shownValue(rule)}`;
  return failAt(undefined, rule, by, `expected ${expected}, found ${by === undefined ? 'no rule refused the call' : `the rule ${shownValue(by)} refused it`}`);
}
