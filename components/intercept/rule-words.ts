/**
 * Interception rules and holds in plain words, for the Intercept tab (issue 13): "Pause requests
 * tools/call “echo” to the server". Pure, so that the words are tested apart from the page. The
 * rule format is lib/model/rules.ts; the words follow docs/rules.md.
 */
import type { Direction, HoldEnd, Rule, RuleAction, RuleMatch } from '../../lib/model/rules.ts';

const KINDS: Record<NonNullable<RuleMatch['kind']>, string> = { any: 'frames', request: 'requests', response: 'responses', notification: 'notifications' };
const DIRECTIONS: Record<NonNullable<RuleMatch['direction']>, string> = { both: '', 'to-server': ' to the server', 'to-client': ' to the client' };

/** The direction of a held frame, in words. */
export function directionWords(dir: Direction): string {
  return dir === 'to-server' ? 'from the client to the server' : 'from the server to the client';
}

const quote = (text: string) => `“${text}”`;

function afterWords(n: number): string {
  return n === 1 ? 'the first' : `${n} of them`;
}

/** The verb before what the rule matches, and the words after it. */
function actionWords(action: RuleAction): [string, string] {
  switch (action.type) {
    case 'pause':
      return ['Pause', ''];
    case 'delay':
      return ['Delay', ` by ${action.ms} ms`];
    case 'drop':
      return ['Drop', ''];
    case 'replace-result':
      return ['Replace the result of', ''];
    case 'error':
      return ['Answer', ` with error ${action.code ?? -32000}${action.message ? ` ${quote(action.message)}` : ''}`];
    case 'corrupt':
      return ['Corrupt the JSON of', ''];
    case 'truncate':
      return ['Truncate', action.bytes === undefined ? ' to half their length' : ` to ${action.bytes} bytes`];
    case 'close':
      return ['Forward', `, then close the transport after ${afterWords(action.after ?? 1)}`];
    case 'kill':
      return ['Forward', `, then kill the server after ${afterWords(action.after ?? 1)}`];
    case 'slow':
      return ['Slow', ` to one every ${action.ms} ms`];
    case 'deny':
      return ['Refuse', ' (permission gate)'];
  }
}

/** What a rule matches: "requests tools/call “echo” containing “x”". */
export function matchWords(match: RuleMatch): string {
  const parts = [KINDS[match.kind ?? 'any']];
  if (match.method !== undefined) parts.push(match.method);
  if (match.name !== undefined) parts.push(quote(match.name));
  if (match.text !== undefined) parts.push(`containing ${quote(match.text)}`);
  if (match.argument !== undefined) parts.push(`whose argument ${quote(match.argument.path)} matches /${match.argument.pattern}/`);
  return parts.join(' ');
}

/** The whole rule in one sentence (without its name). */
export function describeRule(rule: Rule): string {
  const [verb, after] = actionWords(rule.action);
  const server = rule.server !== undefined ? ` of ${rule.server}` : '';
  return `${verb} ${matchWords(rule.match)}${DIRECTIONS[rule.match.direction ?? 'both']}${server}${after}.`;
}

/** The rule as the page names it: its name, else its description. */
export function ruleTitle(rule: Rule): string {
  return rule.name?.trim() ? rule.name : describeRule(rule).slice(0, -1);
}

/** "released in 1:42": what a held frame's timer will do, and when. */
export function countdownWords(leftMs: number): string {
  const seconds = Math.max(0, Math.ceil(leftMs / 1000));
  return `released in ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

const ENDS: Record<HoldEnd, string> = {
  forwarded: 'was forwarded as it was',
  edited: 'was forwarded as edited',
  dropped: 'was dropped',
  responded: 'was answered instead',
  timeout: 'was forwarded as it was when its timer ran out',
  gone: 'went away with its session',
};

/** How a hold ended, after "The frame …". */
export function holdEndWords(how: HoldEnd): string {
  return ENDS[how];
}
