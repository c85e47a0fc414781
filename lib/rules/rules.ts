/**
 * The interpreter of interception rules (issue 13; the format is lib/model/rules.ts, the user's
 * guide docs/rules.md). Pure: text in, a Decision out; the proxy's frame pipeline carries it out.
 * One RuleBook per connection, because some rules have memory: the request each response answers
 * (a response matches by its request's method and name), the count of a `close` / `kill` rule,
 * and when a `slow` rule last let a frame go.
 *
 * Written here rather than taken from a library: no JSON-RPC rule engine exists that knows MCP's
 * names (the tool of `tools/call`, the URI of `resources/read`) or answers a request in its place.
 */
import type { Decision, Direction, Rule, RuleAction, RuleRef } from '../model/rules.ts';
import { answerError, corrupt, denial, describeRule, replacedResult, truncate } from './actions.ts';
import { globMatches, readPattern, testPattern } from './match.ts';

export { describeRule } from './actions.ts';

export interface RuleBookOptions {
  /** The session's server name: rules with another `server` do not apply. */
  server?: string;
  /** Milliseconds, for `slow` rules (tests give their own clock). */
  now?: () => number;
}

type Id = string | number;
type Kind = 'request' | 'response' | 'notification' | 'invalid';

/** What the interpreter reads of a frame, parsed once. */
interface Frame {
  kind: Kind;
  id?: Id;
  method?: string;
  name?: string;
  args?: unknown;
}

/** A request seen on its way, for the response that answers it. */
interface Asked {
  method: string;
  name?: string;
  args?: unknown;
}

/** A rule, prepared: its regular expression compiled once. */
interface Prepared {
  rule: Rule;
  ref: RuleRef;
  /** Globs: `*` is the only wildcard (lib/rules/match.ts matches them in linear time). */
  method?: string;
  name?: string;
  /** Null: the pattern is not a valid regular expression, or could stall the proxy (readPattern), so the rule never matches. */
  argument?: { path: string[]; pattern: RegExp | null };
  structural: boolean;
  /** `close` / `kill`: matches so far. */
  count: number;
  /** `slow`: when the last matching frame goes (or went) on. */
  lastForward?: number;
}

/** Requests remembered for their responses; the oldest go first past this many. */
const MAX_ASKED = 10_000;

/** A rule's regular expression, or null where it is not one or could stall the proxy (rules-file.ts reports why). */
function compilePattern(pattern: string): RegExp | null {
  const read = readPattern(pattern);
  return read.ok ? read.regexp : null;
}

/** The name that `match.name` is compared with: the tool, the prompt, the resource's URI. */
function nameOf(method: string | undefined, params: unknown): string | undefined {
  if (params === null || typeof params !== 'object') return undefined;
  const p = params as Record<string, unknown>;
  if (method === 'tools/call' || method === 'prompts/get') return typeof p.name === 'string' ? p.name : undefined;
  if (method === 'resources/read' || method === 'resources/subscribe' || method === 'resources/unsubscribe') return typeof p.uri === 'string' ? p.uri : undefined;
  return undefined;
}

function isId(value: unknown): value is Id {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Never throws: text that is not a JSON-RPC object is `invalid` (matched only by text). */
function readFrame(raw: string): Frame {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { kind: 'invalid' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { kind: 'invalid' };
  const m = parsed as Record<string, unknown>;
  if (typeof m.method === 'string') {
    const frame: Frame = { kind: isId(m.id) ? 'request' : 'notification', method: m.method, name: nameOf(m.method, m.params) };
    if (isId(m.id)) frame.id = m.id;
    if (m.method === 'tools/call' && m.params && typeof m.params === 'object') frame.args = (m.params as Record<string, unknown>).arguments;
    return frame;
  }
  if (('result' in m || 'error' in m) && (isId(m.id) || m.id === null)) return { kind: 'response', ...(isId(m.id) ? { id: m.id } : {}) };
  return { kind: 'invalid' };
}

/** The argument at a dotted path (`options.path`, `items.0`), as text: a string itself, anything else as JSON. */
function argumentText(args: unknown, path: string[]): string | undefined {
  let value = args;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const key = (dir: Direction, id: Id): string => `${dir}:${typeof id}:${id}`;
const opposite = (dir: Direction): Direction => (dir === 'to-server' ? 'to-client' : 'to-server');

function prepare(rule: Rule): Prepared {
  const m = rule.match;
  const structural = (m.kind !== undefined && m.kind !== 'any') || m.method !== undefined || m.name !== undefined || m.argument !== undefined;
  return {
    rule,
    ref: { id: rule.id, name: describeRule(rule), action: rule.action.type },
    method: m.method,
    name: m.name,
    argument: m.argument ? { path: m.argument.path.split('.'), pattern: compilePattern(m.argument.pattern) } : undefined,
    structural: structural || rule.action.type === 'replace-result' || rule.action.type === 'error' || rule.action.type === 'deny',
    count: 0,
  };
}

export class RuleBook {
  private readonly rules: Prepared[];
  /** Some rule reads the frame's structure: every frame is parsed and its requests remembered. */
  private readonly structural: boolean;
  /** Some rule reads a tool's arguments: a response matches by its request's, so they are kept with it. */
  private readonly keepsArguments: boolean;
  private readonly asked = new Map<string, Asked>();
  private readonly now: () => number;

  constructor(rules: readonly Rule[], options: RuleBookOptions = {}) {
    this.rules = rules.filter((rule) => rule.enabled !== false && (rule.server === undefined || rule.server === options.server)).map(prepare);
    this.structural = this.rules.some((rule) => rule.structural);
    this.keepsArguments = this.rules.some((rule) => rule.argument !== undefined);
    this.now = options.now ?? Date.now;
  }

  /** False: no rule applies to this session, and a frame can go on without being looked at. */
  get active(): boolean {
    return this.rules.length > 0;
  }

  /** What to do with one frame going `dir`. The first rule that matches (and can act on it) decides. */
  decide(dir: Direction, raw: string): Decision {
    if (this.rules.length === 0) return { kind: 'pass' };
    const frame = this.structural ? this.read(dir, raw) : undefined;
    const asked = frame?.kind === 'response' && frame.id !== undefined ? this.answered(dir, frame.id) : undefined;
    for (const rule of this.rules) {
      if (!this.matches(rule, dir, raw, frame, asked)) continue;
      const decision = this.act(rule, raw, frame);
      if (decision) {
        if (decision.kind === 'answer' && frame?.id !== undefined) this.asked.delete(key(dir, frame.id));
        return decision;
      }
    }
    return { kind: 'pass' };
  }

  private read(dir: Direction, raw: string): Frame {
    const frame = readFrame(raw);
    if (frame.kind === 'request' && frame.id !== undefined && frame.method !== undefined) {
      if (this.asked.size >= MAX_ASKED) this.asked.delete(this.asked.keys().next().value as string);
      this.asked.set(key(dir, frame.id), { method: frame.method, name: frame.name, ...(this.keepsArguments ? { args: frame.args } : {}) });
    }
    return frame;
  }

  /** The request a response going `dir` answers (it went the other way), forgotten once answered. */
  private answered(dir: Direction, id: Id): Asked | undefined {
    const k = key(opposite(dir), id);
    const asked = this.asked.get(k);
    this.asked.delete(k);
    return asked;
  }

  private matches(p: Prepared, dir: Direction, raw: string, frame: Frame | undefined, asked: Asked | undefined): boolean {
    const m = p.rule.match;
    if (m.direction !== undefined && m.direction !== 'both' && m.direction !== dir) return false;
    if (m.text !== undefined && !raw.includes(m.text)) return false;
    if (!p.structural) return true;
    if (!frame) return false;
    if (m.kind !== undefined && m.kind !== 'any' && m.kind !== frame.kind) return false;
    const method = frame.kind === 'response' ? asked?.method : frame.method;
    const name = frame.kind === 'response' ? asked?.name : frame.name;
    if (p.method !== undefined && (method === undefined || !globMatches(p.method, method))) return false;
    if (p.name !== undefined && (name === undefined || !globMatches(p.name, name))) return false;
    if (p.argument) {
      const args = frame.kind === 'response' ? asked?.args : frame.args;
      if (method !== 'tools/call' || !p.argument.pattern) return false;
      const text = argumentText(args, p.argument.path);
      if (text === undefined || !testPattern(p.argument.pattern, text)) return false;
    }
    return true;
  }

  /** The decision of a matching rule; undefined where its action does not fit this frame (the next rule may). */
  private act(p: Prepared, raw: string, frame: Frame | undefined): Decision | undefined {
    const rule = p.ref;
    const action: RuleAction = p.rule.action;
    switch (action.type) {
      case 'pause':
        return { kind: 'hold', rule };
      case 'delay':
        return { kind: 'delay', ms: action.ms, rule, what: `delayed it ${action.ms} ms` };
      case 'drop':
        return { kind: 'drop', rule, what: 'dropped it' };
      case 'corrupt':
        return { kind: 'rewrite', raw: corrupt(raw), rule, what: 'corrupted its JSON (cut before the last brace, garbage added)' };
      case 'truncate': {
        const cut = truncate(raw, action.bytes);
        return { kind: 'rewrite', raw: cut, rule, what: `truncated it to ${cut.length} of ${raw.length} characters` };
      }
      case 'close':
      case 'kill':
        return this.count(p, action.type, action.after ?? 1);
      case 'slow':
        return this.slow(p, action.ms);
      case 'replace-result':
      case 'error':
        if (frame?.kind === 'request' && frame.id !== undefined) {
          const answer = action.type === 'error' ? answerError(frame.id, action, p.ref.name) : { raw: replacedResult(frame.id, action.result), what: 'answered it with the rule’s result instead of forwarding it' };
          return { kind: 'answer', raw: answer.raw, rule, what: answer.what };
        }
        if (frame?.kind === 'response') {
          const id = frame.id ?? null;
          if (action.type === 'replace-result') return { kind: 'rewrite', raw: replacedResult(id, action.result), rule, what: 'replaced the result' };
          const turned = answerError(id, action, p.ref.name);
          return { kind: 'rewrite', raw: turned.raw, rule, what: turned.what.replace('answered it with', 'turned the response into') };
        }
        return undefined;
      case 'deny': {
        if (frame?.kind !== 'request' || frame.method !== 'tools/call' || frame.id === undefined) return undefined;
        const tool = frame.name ?? 'an unnamed tool';
        return { kind: 'answer', raw: denial(frame.id, p.rule, p.ref.name, tool), rule, what: `refused the call to ${tool}` };
      }
    }
  }

  private count(p: Prepared, kind: 'close' | 'kill', after: number): Decision | undefined {
    p.count++;
    if (p.count !== after) return undefined;
    const what = kind === 'close' ? 'forwarded it, then closed the transport' : 'forwarded it, then killed the server';
    return { kind, rule: p.ref, what: `${what} (matching frame ${after})` };
  }

  /** Serial: each frame goes at least `ms` after the previous one of this rule went. */
  private slow(p: Prepared, ms: number): Decision {
    const now = this.now();
    const at = p.lastForward === undefined ? now : Math.max(now, p.lastForward + ms);
    p.lastForward = at;
    const late = Math.round(at - now);
    return { kind: 'delay', ms: late, rule: p.ref, what: late === 0 ? `let it go at once (slowing to one frame each ${ms} ms)` : `slowed it: forwarded ${late} ms late, ${ms} ms after the previous one` };
  }
}
