/**
 * The eval file (issue 27, item 4): cases for a model (a prompt and what the model should do with
 * the server's tools), the models to ask, how often. JSONC, the same object a workspace file keeps
 * under `x-mcp-loupe.evals`, and what `mcp-loupe --eval FILE` reads:
 *
 *   {
 *     "cases": [{
 *       "name": "echo the greeting",
 *       "prompt": "Use the echo tool to say hello",
 *       "system": "Use the tools.",                       (optional)
 *       "expect": {
 *         "tools": [{ "name": "echo", "arguments": { "message": { "contains": "hello" } } }],
 *         "order": "any",                                 any (default) | exact | subsequence
 *         "forbid": ["delete-everything"],
 *         "answerContains": ["hello"],                    each, ignoring case
 *         "answerMatches": "/^the tool said/i",           a regular expression, optionally /…/flags
 *         "maxSteps": 4                                   model calls allowed (default 10)
 *       }
 *     }],
 *     "models": ["anthropic:claude-sonnet-4-5", "openai-compatible:http://127.0.0.1:11434/v1#llama3.1"],
 *     "repeats": 3,
 *     "prices": { "openai:gpt-4.1-mini": { "input": 0.4, "output": 1.6 } }   US dollars per million tokens
 *   }
 *
 * An argument matcher (matchers.ts) is a plain value (equal to it), or one of `{ "matches": "re" }`,
 * `{ "contains": "x" }`, `{ "type": "number" }`, `{ "any": true }`, `{ "equals": value }`. Checked
 * here whole: a regular expression that does not compile, a model word that does not read, a tool
 * both expected and forbidden, two cases of one name are each a sentence naming where.
 */
import { z } from 'zod';
import { parseJsonc } from '../json/jsonc.ts';
import { matcherProblems, readRegex } from './matchers.ts';
import { parseModelWord } from './models.ts';

export const ExpectedToolSchema = z.object({
  /** The tool's name on its server, or the name the model sees (`server__tool` with several servers). */
  name: z.string().min(1).max(200),
  /** Argument name (or a JSONPath from `$`, the arguments object) → matcher. */
  arguments: z.record(z.string(), z.unknown()).optional(),
}).strict();

export const ExpectSchema = z.object({
  tools: z.array(ExpectedToolSchema).optional(),
  order: z.enum(['any', 'exact', 'subsequence']).optional(),
  forbid: z.array(z.string().min(1).max(200)).optional(),
  answerContains: z.array(z.string().min(1)).optional(),
  answerMatches: z.string().min(1).optional(),
  maxSteps: z.number().int().min(1).max(100).optional(),
}).strict();

export const EvalCaseSchema = z.object({
  name: z.string().min(1).max(200),
  prompt: z.string().min(1),
  system: z.string().optional(),
  expect: ExpectSchema,
}).strict();

/** US dollars per million tokens, as providers publish their prices. */
export const PriceSchema = z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() }).strict();

export const EvalFileSchema = z.object({
  $schema: z.string().optional(),
  description: z.string().optional(),
  cases: z.array(EvalCaseSchema).max(500),
  models: z.array(z.string()).max(20).optional(),
  repeats: z.number().int().min(1).max(100).optional(),
  /** By model word or by model name; used only where the provider reports no cost. */
  prices: z.record(z.string(), PriceSchema).optional(),
}).strict();

export type ExpectedTool = z.infer<typeof ExpectedToolSchema>;
export type Expect = z.infer<typeof ExpectSchema>;
export type EvalCase = z.infer<typeof EvalCaseSchema>;
export type Price = z.infer<typeof PriceSchema>;
export type EvalFile = z.infer<typeof EvalFileSchema>;

export type EvalFileResult = { ok: true; file: EvalFile } | { ok: false; error: string };

/** The step limit of a case that sets none: the Playground's. */
export const DEFAULT_MAX_STEPS = 10;

/** `cases[1].expect.tools[0].name` for a zod issue's path. */
function where(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out === '' ? String(key) : `${out}.${String(key)}`), '');
}

function caseProblems(c: EvalCase, at: string): string[] {
  const problems: string[] = [];
  const expected = new Set((c.expect.tools ?? []).map((t) => t.name));
  for (const name of c.expect.forbid ?? []) if (expected.has(name)) problems.push(`${at}.expect: ${JSON.stringify(name)} is both expected and forbidden`);
  (c.expect.tools ?? []).forEach((tool, i) => {
    for (const [key, matcher] of Object.entries(tool.arguments ?? {})) {
      problems.push(...matcherProblems(key, matcher).map((p) => `${at}.expect.tools[${i}].arguments: ${p}`));
    }
  });
  if (c.expect.answerMatches !== undefined) {
    const read = readRegex(c.expect.answerMatches);
    if (!read.ok) problems.push(`${at}.expect.answerMatches: ${read.error}`);
  }
  return problems;
}

/** What the schema cannot say: names, regular expressions, model words. */
function fileProblems(file: EvalFile): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  file.cases.forEach((c, i) => {
    if (names.has(c.name)) problems.push(`cases[${i}].name: another case is named ${JSON.stringify(c.name)} (names tell runs apart in reports and JUnit)`);
    names.add(c.name);
    problems.push(...caseProblems(c, `cases[${i}]`));
  });
  (file.models ?? []).forEach((word, i) => {
    const read = parseModelWord(word);
    if (!read.ok) problems.push(`models[${i}]: ${read.error}`);
  });
  return problems;
}

/** An eval file's data (already parsed JSON) checked whole; every problem named where it is. */
export function readEvalData(data: unknown): EvalFileResult {
  const parsed = EvalFileSchema.safeParse(data);
  if (!parsed.success) {
    const lines = parsed.error.issues.slice(0, 10).map((issue) => `${where(issue.path) || 'the file'}: ${issue.message}`);
    return { ok: false, error: `The eval file is not valid: ${lines.join('; ')}.` };
  }
  const problems = fileProblems(parsed.data);
  if (problems.length > 0) return { ok: false, error: `The eval file is not valid: ${problems.slice(0, 10).join('; ')}.` };
  return { ok: true, file: parsed.data };
}

/** An eval file's text (JSON with comments). */
export function parseEvalFile(text: string): EvalFileResult {
  const json = parseJsonc(text);
  return json.ok ? readEvalData(json.value) : { ok: false, error: `The eval file is not JSON: ${json.error}` };
}
