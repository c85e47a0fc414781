/**
 * An eval file as the page edits it (issue 27): each case's fields as the text a person types (the
 * argument matchers as JSON, forbidden tools and answer words one per line), turned back into an
 * eval file — checked by the same reader as `--eval` (schema.ts) — for a run, an export or the
 * workspace. Nothing typed is lost on a mistake: the draft stays, the sentence says where.
 */
import { readEvalData, type EvalCase, type EvalFile, type Price } from './schema.ts';

export type ToolOrder = 'any' | 'exact' | 'subsequence';

export interface ToolDraft {
  name: string;
  /** The argument matchers as JSON text (empty: any arguments). */
  arguments: string;
}

export interface CaseDraft {
  name: string;
  prompt: string;
  system: string;
  tools: ToolDraft[];
  order: ToolOrder;
  /** One tool a line (commas too). */
  forbid: string;
  /** One text a line. */
  answerContains: string;
  answerMatches: string;
  /** Empty: the default step limit. */
  maxSteps: string;
}

export interface EvalDraft {
  cases: CaseDraft[];
  /** Model words the file names (the Playground's own models are offered beside them). */
  models: string[];
  repeats: number;
  /** Kept as the file had them: the page has no editor for prices. */
  prices?: Record<string, Price>;
}

export function emptyCase(n: number): CaseDraft {
  return { name: `case ${n}`, prompt: '', system: '', tools: [], order: 'any', forbid: '', answerContains: '', answerMatches: '', maxSteps: '' };
}

export const EMPTY_DRAFT: EvalDraft = { cases: [], models: [], repeats: 1 };

const lines = (text: string) => text.split(/[\n,]/).map((s) => s.trim()).filter((s) => s !== '');

function caseDraftOf(c: EvalCase): CaseDraft {
  const e = c.expect;
  return {
    name: c.name,
    prompt: c.prompt,
    system: c.system ?? '',
    tools: (e.tools ?? []).map((t) => ({ name: t.name, arguments: t.arguments === undefined ? '' : JSON.stringify(t.arguments, null, 2) })),
    order: e.order ?? 'any',
    forbid: (e.forbid ?? []).join('\n'),
    answerContains: (e.answerContains ?? []).join('\n'),
    answerMatches: e.answerMatches ?? '',
    maxSteps: e.maxSteps === undefined ? '' : String(e.maxSteps),
  };
}

export function draftOf(file: EvalFile): EvalDraft {
  return { cases: file.cases.map(caseDraftOf), models: [...(file.models ?? [])], repeats: file.repeats ?? 1, ...(file.prices ? { prices: file.prices } : {}) };
}

type Built = { ok: true; value: unknown } | { ok: false; error: string };

function argumentsOf(text: string, where: string): Built {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { ok: true, value };
    return { ok: false, error: `${where}: the arguments are not a JSON object of argument → matcher, such as {"message": {"contains": "hello"}}` };
  } catch (error) {
    return { ok: false, error: `${where}: the arguments are not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** The case as the file has it; the fields left empty are left out. */
function caseOf(d: CaseDraft, i: number): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  const tools: Record<string, unknown>[] = [];
  for (const [j, t] of d.tools.entries()) {
    const args = argumentsOf(t.arguments, `Case ${i + 1}, expected tool ${j + 1}`);
    if (!args.ok) return args;
    tools.push({ name: t.name.trim(), ...(args.value !== undefined ? { arguments: args.value } : {}) });
  }
  const steps = d.maxSteps.trim();
  const expect = {
    ...(tools.length > 0 ? { tools } : {}),
    ...(d.order !== 'any' ? { order: d.order } : {}),
    ...(lines(d.forbid).length > 0 ? { forbid: lines(d.forbid) } : {}),
    ...(d.answerContains.trim() !== '' ? { answerContains: d.answerContains.split('\n').map((s) => s.trim()).filter((s) => s !== '') } : {}),
    ...(d.answerMatches.trim() !== '' ? { answerMatches: d.answerMatches.trim() } : {}),
    ...(steps !== '' ? { maxSteps: /^\d+$/.test(steps) ? Number(steps) : steps } : {}),
  };
  return { ok: true, value: { name: d.name.trim(), prompt: d.prompt, ...(d.system.trim() !== '' ? { system: d.system } : {}), expect } };
}

/** The draft as an eval file, checked whole; or the first sentence that says what to fix. */
export function fileOf(draft: EvalDraft): { ok: true; file: EvalFile } | { ok: false; error: string } {
  const cases: Record<string, unknown>[] = [];
  for (const [i, d] of draft.cases.entries()) {
    const built = caseOf(d, i);
    if (!built.ok) return built;
    cases.push(built.value);
  }
  const data = { cases, ...(draft.models.length > 0 ? { models: draft.models } : {}), ...(draft.repeats !== 1 ? { repeats: draft.repeats } : {}), ...(draft.prices ? { prices: draft.prices } : {}) };
  return readEvalData(data);
}
