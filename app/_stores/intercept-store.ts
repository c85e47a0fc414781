/**
 * The Intercept tab's store (issue 13): the interception rules in force and the frames held now,
 * for every session of the proxy (Loupe's own, tapped and gateway ones), as the proxy last said
 * (`snapshot`, `rules`, `hold`, `hold-done`; lib/wire/intercept.ts). The proxy is the source of
 * truth: an edit sends the whole new list (`set-rules`) and the list shown is the one the proxy
 * sends back to every tab. Kept here too: the text typed into each held frame's box and response,
 * so that leaving the tab and coming back finds them as they were, and the last thing that could
 * not be done, in words.
 */
import { HostStore } from './host-store.ts';
import type { HeldFrame, HoldDecision, HoldEnd, Rule } from '../../lib/model/rules.ts';
import type { RequestId, ServerMessage } from '../../lib/wire/wire.ts';
import type { MessageHost } from '../_wire/message-host.ts';
import { holdEndWords } from '../../components/intercept/rule-words.ts';

/** What the person typed for one held frame. */
export interface HoldDraft {
  /** The frame's text as edited (absent: not edited). */
  text?: string;
  /** `Respond instead` is open with this answer. */
  response?: string;
}

export interface InterceptState {
  rules: readonly Rule[];
  /** Where the rules came from when not a page (`--rules FILE`, the workspace file). */
  source?: string;
  /** Oldest first. */
  holds: readonly HeldFrame[];
  drafts: Readonly<Record<string, HoldDraft>>;
  /** Why the latest change of the rules did not happen, in one sentence. */
  problem?: string;
  /** Why the latest decision on a held frame did not happen, or how the frame ended instead. */
  notice?: string;
}

const NOT_SENT = 'Not connected to Loupe, so nothing was sent; try again once the page reconnects.';

/** The JSON-RPC id of a request's text, when it has one (for the answer `Respond instead` proposes). */
function requestIdOf(raw: string): RequestId | undefined {
  try {
    const id = (JSON.parse(raw) as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The answer `Respond instead` starts from: a JSON-RPC error for the held request's id. */
export function proposedResponse(frame: Pick<HeldFrame, 'raw'>): string {
  const id = requestIdOf(frame.raw) ?? null;
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'Refused by the person at Loupe’s Intercept tab.' } }, null, 2);
}

export class InterceptStore extends HostStore<InterceptState> {
  /** Holds this tab decided on, until the proxy says how they ended. */
  private readonly decided = new Set<string>();
  /** The rules as the proxy last said (what a refused change goes back to). */
  private confirmed: readonly Rule[] = [];

  constructor(private readonly host: MessageHost) {
    super(host, { rules: [], holds: [], drafts: {} });
  }

  /**
   * The whole new list of rules, sent to the proxy. Shown at once (a checkbox must not wait for
   * the round trip); the proxy's `rules`, to every tab, then confirms it, and a refusal puts the
   * list back as the proxy has it.
   */
  setRules(rules: readonly Rule[]): boolean {
    const sent = this.host.send({ type: 'set-rules', rules: [...rules] });
    this.set(sent ? { ...this.state, rules, problem: undefined } : { ...this.state, problem: NOT_SENT });
    return sent;
  }

  /** Adds the rule, or replaces the one with its id. */
  saveRule(rule: Rule): boolean {
    const rules = this.state.rules;
    const at = rules.findIndex((r) => r.id === rule.id);
    return this.setRules(at < 0 ? [...rules, rule] : rules.map((r, i) => (i === at ? rule : r)));
  }

  deleteRule(id: string): boolean {
    return this.setRules(this.state.rules.filter((r) => r.id !== id));
  }

  setEnabled(id: string, enabled: boolean): boolean {
    return this.setRules(this.state.rules.map((r) => (r.id !== id ? r : enabled ? withoutEnabled(r) : { ...r, enabled: false })));
  }

  editText(holdId: string, text: string): void {
    this.setDraft(holdId, { ...this.state.drafts[holdId], text });
  }

  /** Opens `Respond instead` with the proposed answer (or what was typed there before); undefined closes it. */
  openResponse(holdId: string, open: boolean): void {
    const frame = this.state.holds.find((h) => h.holdId === holdId);
    if (!frame) return;
    const draft = this.state.drafts[holdId] ?? {};
    this.setDraft(holdId, { ...draft, response: open ? (draft.response ?? proposedResponse(frame)) : undefined });
  }

  editResponse(holdId: string, response: string): void {
    this.setDraft(holdId, { ...this.state.drafts[holdId], response });
  }

  /** A person's decision on one held frame. */
  release(holdId: string, decision: HoldDecision): boolean {
    const sent = this.host.send({ type: 'release-hold', holdId, decision });
    if (sent) this.decided.add(holdId);
    this.set({ ...this.state, notice: sent ? undefined : NOT_SENT });
    return sent;
  }

  /** Forward every held frame as it is (of one session, or of all). */
  releaseAll(session?: string): boolean {
    const sent = this.host.send({ type: 'release-all', ...(session !== undefined ? { session } : {}) });
    if (sent) for (const hold of this.state.holds) if (session === undefined || hold.session === session) this.decided.add(hold.holdId);
    this.set({ ...this.state, notice: sent ? undefined : NOT_SENT });
    return sent;
  }

  protected receive(message: ServerMessage): void {
    switch (message.type) {
      case 'snapshot': {
        // A new socket: the proxy's lists replace ours; drafts of frames still held stay.
        const holds = message.holds ?? [];
        const drafts = Object.fromEntries(Object.entries(this.state.drafts).filter(([id]) => holds.some((h) => h.holdId === id)));
        this.decided.clear();
        this.confirmed = message.rules ?? [];
        return this.set({ ...this.state, rules: this.confirmed, holds, drafts });
      }
      case 'rules':
        this.confirmed = message.rules;
        return this.set({ ...this.state, rules: message.rules, source: message.source, problem: undefined });
      case 'hold':
        if (this.state.holds.some((h) => h.holdId === message.frame.holdId)) return;
        return this.set({ ...this.state, holds: [...this.state.holds, message.frame] });
      case 'hold-done':
        return this.ended(message.holdId, message.how);
      case 'error':
        // A decision that came too late (hub-intercept.ts): the frame is gone, say so here too.
        if (message.error.code === 'NOT_PENDING' && message.error.detail?.requestId !== undefined && this.decided.delete(message.error.detail.requestId)) {
          return this.set({ ...this.state, notice: message.error.message });
        }
        if (message.error.code === 'BAD_MESSAGE' && message.error.message.startsWith('The rules were not changed')) return this.set({ ...this.state, rules: this.confirmed, problem: message.error.message });
        return;
      default:
        return;
    }
  }

  private ended(holdId: string, how: HoldEnd): void {
    const mine = this.decided.delete(holdId);
    const { [holdId]: _gone, ...drafts } = this.state.drafts;
    const holds = this.state.holds.filter((h) => h.holdId !== holdId);
    // The person decided, but the frame ended otherwise (another tab was first, its timer ran out).
    const otherwise = mine && (how === 'timeout' || how === 'gone');
    this.set({ ...this.state, holds, drafts, notice: otherwise ? `The frame ${holdEndWords(how)}.` : this.state.notice });
  }

  private setDraft(holdId: string, draft: HoldDraft): void {
    this.set({ ...this.state, drafts: { ...this.state.drafts, [holdId]: draft } });
  }

}

function withoutEnabled(rule: Rule): Rule {
  const { enabled: _enabled, ...rest } = rule;
  return rest;
}
