/**
 * The interception messages of the wire protocol (issue 13, lib/wire/intercept.ts): a page sets
 * the workspace's rules and decides what becomes of a frame a `pause` rule holds. The engine owns
 * the rules and the holds (engine.ts, hold-broker.ts); every tab hears each change as the engine's
 * `rules` / `hold` / `hold-done` events (hub.ts), so that a second tab, or a page reloaded, shows the
 * same rules and the same held frames.
 */
import type { WebSocket } from 'ws';
import type { Rule } from '../../../lib/model/rules.ts';
import { readPattern } from '../../../lib/rules/match.ts';
import type { ClientMessage, ServerMessage } from '../../../lib/wire/wire.ts';
import type { EngineEvent } from '../../engine/engine.ts';
import type { HubContext } from './context.ts';

const INTERCEPT_TYPES = new Set(['set-rules', 'release-hold', 'release-all'] as const);

type InterceptType = typeof INTERCEPT_TYPES extends Set<infer T> ? T : never;
export type InterceptMessage = Extract<ClientMessage, { type: InterceptType }>;

export function isInterceptMessage(message: ClientMessage): message is InterceptMessage {
  return INTERCEPT_TYPES.has(message.type as InterceptType);
}

/**
 * What zod cannot say about a list of rules (the wire schema checked each rule's shape): ids must
 * be unique, since a page edits and deletes a rule by its id, and an argument pattern must be a
 * regular expression JavaScript accepts that cannot stall the proxy (readPattern), else the gate
 * could never match. Undefined when fine.
 */
export function rulesProblem(rules: readonly Rule[]): string | undefined {
  const seen = new Set<string>();
  for (const [index, rule] of rules.entries()) {
    const which = `Rule ${index + 1}${rule.name ? ` (“${rule.name}”)` : ''}`;
    if (seen.has(rule.id)) return `${which} has the id “${rule.id}” of an earlier rule; give each rule its own id.`;
    seen.add(rule.id);
    const pattern = rule.match.argument?.pattern;
    // The same check as a rules file's (lib/rules/match.ts): a pattern that could stall the proxy is refused, with why.
    const read = pattern === undefined ? undefined : readPattern(pattern);
    if (read?.ok === false) return `${which}: its argument pattern ${read.problem} Fix the pattern and save again.`;
  }
  return undefined;
}

export function dispatchIntercept(hub: HubContext, ws: WebSocket, message: InterceptMessage): void {
  const engine = hub.engine;
  switch (message.type) {
    case 'set-rules': {
      const problem = rulesProblem(message.rules);
      if (problem) return hub.sendError(ws, { code: 'BAD_MESSAGE', message: `The rules were not changed: ${problem}` });
      // The engine tells every tab (this one too) through its `rules` event.
      return engine.setRules(message.rules);
    }
    case 'release-hold':
      if (!engine.holds.decide(message.holdId, message.decision)) {
        hub.sendError(ws, {
          code: 'NOT_PENDING',
          message: 'That frame is no longer held: it was released from another tab, its timer forwarded it, or its session ended.',
          detail: { requestId: message.holdId },
        });
      }
      return;
    case 'release-all':
      engine.holds.releaseAll(message.session);
      return;
  }
}

export type InterceptEvent = Extract<EngineEvent, { type: 'rules' | 'hold' | 'hold-done' }>;

/** The engine's interception events as the messages every tab is sent. */
export function interceptBroadcast(event: InterceptEvent): ServerMessage {
  switch (event.type) {
    case 'rules':
      return { type: 'rules', rules: event.rules, ...(event.source !== undefined ? { source: event.source } : {}) };
    case 'hold':
      return { type: 'hold', frame: event.frame };
    case 'hold-done':
      return { type: 'hold-done', holdId: event.holdId, session: event.session, how: event.how };
  }
}

/** What a snapshot carries of interception: the rules in force and the frames held now. */
export function interceptSnapshot(hub: HubContext): Pick<Extract<ServerMessage, { type: 'snapshot' }>, 'rules' | 'holds'> {
  return { rules: hub.engine.rules, holds: hub.engine.holds.list() };
}
