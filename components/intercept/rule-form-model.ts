/**
 * The Intercept tab's rule form (issue 13) as data: every field as the text the person typed, a
 * rule turned into a form and back, and what is wrong with each field, in words shown next to it.
 * The format itself (lib/model/rules.ts) is checked by its zod schema last, so that the form can
 * never send what the proxy would refuse.
 */
import { RuleSchema, type Rule, type RuleAction, type RuleActionType, type RuleMatch } from '../../lib/model/rules.ts';
import { readPattern } from '../../lib/rules/match.ts';

export type RuleField = 'name' | 'method' | 'toolName' | 'text' | 'argPath' | 'argPattern' | 'ms' | 'result' | 'code' | 'message' | 'bytes' | 'after';

export interface RuleDraft {
  name: string;
  enabled: boolean;
  direction: NonNullable<RuleMatch['direction']>;
  kind: NonNullable<RuleMatch['kind']>;
  method: string;
  /** The tool, prompt or resource (`match.name`). */
  toolName: string;
  text: string;
  argPath: string;
  argPattern: string;
  /** A server's name; '' for any server. */
  server: string;
  action: RuleActionType;
  ms: string;
  /** JSON text of the `replace-result` result. */
  result: string;
  code: string;
  /** The error's message, or the gate's refusal text. */
  message: string;
  bytes: string;
  after: string;
}

export const ACTION_LABELS: Record<RuleActionType, string> = {
  pause: 'Pause (breakpoint)',
  delay: 'Delay',
  drop: 'Drop',
  'replace-result': 'Replace result',
  error: 'Error',
  corrupt: 'Corrupt JSON',
  truncate: 'Truncate',
  close: 'Close transport after N',
  kill: 'Kill server after N',
  slow: 'Slow stream',
  deny: 'Deny (permission gate)',
};

export const DIRECTION_LABELS: Record<RuleDraft['direction'], string> = { both: 'Both', 'to-server': 'To the server', 'to-client': 'To the client' };
export const KIND_LABELS: Record<RuleDraft['kind'], string> = { any: 'Any', request: 'Request', response: 'Response', notification: 'Notification' };

/** The fields each action shows besides the match. */
export const ACTION_FIELDS: Record<RuleActionType, readonly RuleField[]> = {
  pause: [],
  delay: ['ms'],
  drop: [],
  'replace-result': ['result'],
  error: ['code', 'message'],
  corrupt: [],
  truncate: ['bytes'],
  close: ['after'],
  kill: ['after'],
  slow: ['ms'],
  deny: ['message'],
};

export const EMPTY_DRAFT: RuleDraft = {
  name: '',
  enabled: true,
  direction: 'both',
  kind: 'any',
  method: '',
  toolName: '',
  text: '',
  argPath: '',
  argPattern: '',
  server: '',
  action: 'pause',
  ms: '500',
  result: '{"content":[{"type":"text","text":"replaced by Loupe"}]}',
  code: '-32000',
  message: '',
  bytes: '',
  after: '1',
};

export function draftOf(rule: Rule): RuleDraft {
  const { match, action } = rule;
  const draft: RuleDraft = {
    ...EMPTY_DRAFT,
    name: rule.name ?? '',
    enabled: rule.enabled !== false,
    direction: match.direction ?? 'both',
    kind: match.kind ?? 'any',
    method: match.method ?? '',
    toolName: match.name ?? '',
    text: match.text ?? '',
    argPath: match.argument?.path ?? '',
    argPattern: match.argument?.pattern ?? '',
    server: rule.server ?? '',
    action: action.type,
  };
  switch (action.type) {
    case 'delay':
    case 'slow':
      return { ...draft, ms: String(action.ms) };
    case 'replace-result':
      return { ...draft, result: JSON.stringify(action.result, null, 2) };
    case 'error':
      return { ...draft, code: action.code === undefined ? '' : String(action.code), message: action.message ?? '' };
    case 'truncate':
      return { ...draft, bytes: action.bytes === undefined ? '' : String(action.bytes) };
    case 'close':
    case 'kill':
      return { ...draft, after: action.after === undefined ? '' : String(action.after) };
    case 'deny':
      return { ...draft, message: action.message ?? '' };
    default:
      return draft;
  }
}

export type DraftCheck = { ok: true; rule: Rule } | { ok: false; errors: Partial<Record<RuleField, string>>; general?: string };

type Problems = Partial<Record<RuleField, string>>;

/** A whole number in [min, max], or undefined when the text is empty and `optional`. */
function whole(text: string, field: RuleField, problems: Problems, min: number, max: number, optional: boolean, what: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') {
    if (!optional) problems[field] = `Give ${what}.`;
    return undefined;
  }
  const value = Number(trimmed);
  if (!/^-?\d+$/.test(trimmed) || !Number.isSafeInteger(value) || value < min || value > max) {
    problems[field] = `${what[0].toUpperCase()}${what.slice(1)} is a whole number from ${min} to ${max}.`;
    return undefined;
  }
  return value;
}

function actionOf(draft: RuleDraft, problems: Problems): RuleAction | undefined {
  const message = draft.message.trim() === '' ? undefined : draft.message;
  switch (draft.action) {
    case 'delay':
    case 'slow': {
      const ms = whole(draft.ms, 'ms', problems, 0, 600_000, false, 'the milliseconds');
      return ms === undefined ? undefined : { type: draft.action, ms };
    }
    case 'replace-result': {
      let result: unknown;
      try {
        result = JSON.parse(draft.result);
      } catch {
        problems.result = 'The result is not JSON: write a JSON object, e.g. {"content":[{"type":"text","text":"hi"}]}.';
        return undefined;
      }
      if (result === null || typeof result !== 'object' || Array.isArray(result)) {
        problems.result = 'The result is a JSON object (in braces), as a server’s result is.';
        return undefined;
      }
      return { type: 'replace-result', result: result as Record<string, unknown> };
    }
    case 'error': {
      const code = whole(draft.code, 'code', problems, -2_147_483_648, 2_147_483_647, true, 'the code');
      if (problems.code) return undefined;
      return { type: 'error', ...(code !== undefined ? { code } : {}), ...(message !== undefined ? { message } : {}) };
    }
    case 'truncate': {
      const bytes = whole(draft.bytes, 'bytes', problems, 0, 100_000_000, true, 'the bytes kept');
      return problems.bytes ? undefined : { type: 'truncate', ...(bytes !== undefined ? { bytes } : {}) };
    }
    case 'close':
    case 'kill': {
      const after = whole(draft.after, 'after', problems, 1, 1_000_000, true, 'N');
      return problems.after ? undefined : { type: draft.action, ...(after !== undefined ? { after } : {}) };
    }
    case 'deny':
      return { type: 'deny', ...(message !== undefined ? { message } : {}) };
    default:
      return { type: draft.action };
  }
}

function matchOf(draft: RuleDraft, problems: Problems): RuleMatch {
  const optional = (text: string) => (text.trim() === '' ? undefined : text.trim());
  const match: RuleMatch = {};
  if (draft.direction !== 'both') match.direction = draft.direction;
  if (draft.kind !== 'any') match.kind = draft.kind;
  const method = optional(draft.method);
  if (method !== undefined) match.method = method;
  const name = optional(draft.toolName);
  if (name !== undefined) match.name = name;
  // The text is matched as typed: its spaces may be what the person looks for.
  if (draft.text !== '') match.text = draft.text;
  const path = optional(draft.argPath);
  const pattern = draft.argPattern;
  if (path === undefined && pattern !== '') problems.argPath = 'Give the argument’s path (e.g. path, or options.mode) for the pattern to test.';
  if (path !== undefined && pattern === '') problems.argPattern = 'Give the pattern the argument must match (a regular expression, e.g. ^/etc/).';
  if (pattern !== '') {
    // What the proxy will refuse (lib/rules/match.ts), said beside the field before saving.
    const read = readPattern(pattern);
    if (!read.ok) problems.argPattern = `This pattern ${read.problem}`;
  }
  if (path !== undefined && pattern !== '') match.argument = { path, pattern };
  return match;
}

/** The rule the draft stands for (with this id), or what is wrong with which field. */
export function checkDraft(draft: RuleDraft, id: string): DraftCheck {
  const problems: Problems = {};
  const match = matchOf(draft, problems);
  const action = actionOf(draft, problems);
  if (draft.action === 'deny' && match.method !== undefined && match.method !== 'tools/call') problems.method = 'A permission gate guards tool calls: leave Method empty or write tools/call.';
  if (draft.action === 'replace-result' && match.kind === 'notification') problems.result = 'A notification has no result to replace: choose Request or Response as the Kind.';
  if (Object.keys(problems).length > 0 || !action) return { ok: false, errors: problems };
  const candidate = {
    id,
    ...(draft.name.trim() !== '' ? { name: draft.name.trim() } : {}),
    ...(draft.enabled ? {} : { enabled: false }),
    ...(draft.server !== '' ? { server: draft.server } : {}),
    match: draft.action === 'deny' && match.method === undefined ? { ...match, method: 'tools/call' } : match,
    action,
  };
  const parsed = RuleSchema.safeParse(candidate);
  if (!parsed.success) return { ok: false, errors: {}, general: `The rule does not fit the format: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}.` };
  return { ok: true, rule: parsed.data };
}

/** An id no rule of the list has: r1, r2 … */
export function freshRuleId(rules: readonly Rule[]): string {
  const taken = new Set(rules.map((r) => r.id));
  let n = rules.length + 1;
  while (taken.has(`r${n}`)) n += 1;
  return `r${n}`;
}
