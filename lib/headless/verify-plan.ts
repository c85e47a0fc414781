/**
 * Which recorded requests verify replays, and how (issue 10; split from verify.ts): the client's
 * own requests in recorded order, the per-run progress token taken out, and the client
 * capabilities the recording declared (a server may offer other tools to other clients).
 */
import { CLIENT_CAPABILITIES_KEY, isModernVersion, PROTOCOL_VERSION_KEY, TASKS_EXTENSION } from '../model/modern-meta.ts';
import { stringifySafe } from '../json/safe-json.ts';
import { conversationOf, readFrame, type Exchange, type ReadFrame } from '../trace/exchanges.ts';
import type { ImportedTrace } from '../trace/read-trace.ts';
import type { ClientCapabilityChoice, FrameEvent } from '../wire/wire.ts';

export interface ReplayStep {
  exchange: Exchange;
  /** The recorded params without the per-run `_meta.progressToken`. */
  params: Record<string, unknown> | undefined;
  /** The recording asked for progress: the replay asks too, with a fresh token. */
  progress: boolean;
  /** The recording has the answer, so the live one is compared; otherwise replayed only. */
  compare: boolean;
  /** Why it is not compared, when the reason is not simply a missing answer. */
  why?: string;
}

export interface ReplayPlan {
  /** The recorded `initialize` (compared with the live session's handshake, not sent again). */
  initialize?: Exchange;
  steps: ReplayStep[];
  /** Recorded requests that are not replayed, and why. */
  skipped: { seq: number; method: string; why: string }[];
  /** What in the recording could not be read or paired, in words. */
  problems: string[];
  /** Every frame of the recording in order, for the frames around a divergence. */
  frames: ReadFrame[];
  header: ImportedTrace['header'];
}

/** Ids of the requests Loupe's router sends for the user (proxy/session/raw-router.ts); the SDK numbers its own. */
const ROUTER_ID = /^loupe-\d+$/;

export const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Whether a recorded answer can be compared. A 2026-07-28 answer that still asks for input means
 * the recording stopped before the call's final answer (nobody gave the input), while the live call
 * runs its rounds to the end: comparing the two would report drift against the same server.
 */
function comparable(response: Exchange['response']): { compare: boolean; why?: string } {
  if (response?.ok === true && isRecord(response.result) && response.result.resultType === 'input_required') {
    return { compare: false, why: 'the recording stops at an input_required answer (the input was never given): replayed, not compared' };
  }
  return { compare: response !== undefined, why: undefined };
}

function withoutProgressToken(params: Record<string, unknown> | undefined): { params: Record<string, unknown> | undefined; progress: boolean } {
  const meta = params?._meta;
  if (!params || !isRecord(meta) || meta.progressToken === undefined) return { params, progress: false };
  const { progressToken: _token, ...rest } = meta;
  const { _meta: _old, ...others } = params;
  return { params: Object.keys(rest).length > 0 ? { ...others, _meta: rest } : others, progress: true };
}

/**
 * Which recorded requests to send again. In a trace Loupe made, the user's requests went through
 * its router (`loupe-N` ids) or were sent by hand (frames with an `origin`); the rest (`initialize`
 * and whatever else the SDK sent by itself) the live session's own SDK does again. In a trace of
 * another client (`--tap`) every request but `initialize` is the client's.
 */
export function planReplay(trace: ImportedTrace): ReplayPlan {
  const conversation = conversationOf(trace.events);
  const frameEvents = trace.events.filter((e): e is FrameEvent => e.kind === 'frame');
  const frames = frameEvents.map(readFrame);
  const byHand = new Set(frameEvents.filter((f) => f.dir === 'out' && f.origin !== undefined).map((f) => f.seq));
  const viaRouter = conversation.exchanges.some((e) => ROUTER_ID.test(String(e.id)));
  const plan: ReplayPlan = { steps: [], skipped: [], problems: [], frames, header: trace.header };
  // A 2026-07-28 call that asked for input was sent again (issue 12): its rounds are one step.
  const rounds = new Map(frameEvents.filter((f) => f.round !== undefined).map((f) => [f.seq, f.round!]));
  for (const exchange of conversation.exchanges) {
    const { seq, method } = exchange;
    const round = rounds.get(seq);
    if (round) {
      const first = plan.steps.find((step) => step.exchange.id === round.call);
      if (first) {
        // The live call runs its rounds again by itself: its final answer is compared with this round's.
        first.exchange = { ...first.exchange, response: exchange.response };
        Object.assign(first, comparable(exchange.response));
      }
      plan.skipped.push({ seq, method, why: `round ${round.n} of the call at seq ${first?.exchange.seq ?? '?'} (input_required): the live call runs its rounds itself, and its final answer is compared` });
      continue;
    }
    if (method === 'server/discover' && viaRouter && !ROUTER_ID.test(String(exchange.id))) {
      plan.skipped.push({ seq, method, why: "Loupe's protocol probe, which the live session sends again on its own" });
    } else if (method === 'initialize') {
      if (plan.initialize) plan.skipped.push({ seq, method, why: 'a second initialize (the live session has one handshake)' });
      else plan.initialize = exchange;
    } else if (viaRouter && !ROUTER_ID.test(String(exchange.id)) && !byHand.has(seq)) {
      plan.skipped.push({ seq, method, why: 'sent by the SDK by itself, which the live session does again on its own' });
    } else if (exchange.params !== undefined && !isRecord(exchange.params)) {
      plan.skipped.push({ seq, method, why: 'its params are not an object, which Loupe cannot send as a request' });
    } else {
      const stripped = withoutProgressToken(exchange.params as Record<string, unknown> | undefined);
      plan.steps.push({ exchange, ...stripped, ...comparable(exchange.response) });
    }
  }
  if (trace.truncatedLine !== undefined) plan.problems.push(`line ${trace.truncatedLine}: cut short (the recording stopped mid-write); the complete lines before it are used`);
  for (const p of trace.problems) plan.problems.push(`line ${p.line}: ${p.error} (skipped)`);
  if (trace.problemCount > trace.problems.length) plan.problems.push(`${trace.problemCount - trace.problems.length} more unreadable lines (skipped)`);
  for (const f of conversation.unreadable) plan.problems.push(`seq ${f.seq}: the frame is not a JSON object (skipped)`);
  const answered = new Set(conversation.exchanges.map((e) => e.response?.seq));
  for (const f of frames) {
    const m = f.message;
    if (f.dir === 'in' && m && m.method === undefined && !answered.has(f.seq)) plan.problems.push(`seq ${f.seq}: a response with id ${stringifySafe(m.id) ?? '?'} answers no recorded request (not compared)`);
  }
  return plan;
}

/** The client capabilities the recording declared, as a choice for the live session (so the server sees the same client). */
export function recordedClientChoice(plan: ReplayPlan): ClientCapabilityChoice | undefined {
  const params = plan.initialize?.params;
  const caps = isRecord(params) && isRecord(params.capabilities) ? params.capabilities : modernCapabilitiesOf(plan);
  if (!caps) return undefined;
  const elicitation = isRecord(caps.elicitation) ? caps.elicitation : undefined;
  // An empty `elicitation: {}` means form mode (spec 2025-11-25, client/elicitation).
  const bare = elicitation !== undefined && elicitation.form === undefined && elicitation.url === undefined;
  return {
    sampling: caps.sampling !== undefined,
    samplingTools: isRecord(caps.sampling) && caps.sampling.tools !== undefined,
    elicitationForm: elicitation !== undefined && (bare || elicitation.form !== undefined),
    elicitationUrl: elicitation?.url !== undefined,
    roots: caps.roots !== undefined,
    rootsListChanged: isRecord(caps.roots) && caps.roots.listChanged === true,
    tasks: caps.tasks !== undefined || (isRecord(caps.extensions) && caps.extensions[TASKS_EXTENSION] !== undefined),
    apps: isRecord(caps.extensions) && caps.extensions['io.modelcontextprotocol/ui'] !== undefined,
  };
}


/** A 2026-07-28 recording declares the client's capabilities in each request's `_meta` (issue 12). */
function modernCapabilitiesOf(plan: ReplayPlan): Record<string, unknown> | undefined {
  for (const step of plan.steps) {
    const meta = isRecord(step.exchange.params) ? step.exchange.params._meta : undefined;
    if (isRecord(meta) && isRecord(meta[CLIENT_CAPABILITIES_KEY])) return meta[CLIENT_CAPABILITIES_KEY] as Record<string, unknown>;
  }
  return undefined;
}

/** True when the recording is of a 2026-07-28 session: no initialize, and requests carrying the 2026 `_meta` envelope. */
export function recordedModern(plan: ReplayPlan): boolean {
  if (plan.initialize) return false;
  return plan.steps.some((step) => {
    const meta = isRecord(step.exchange.params) ? step.exchange.params._meta : undefined;
    return isRecord(meta) && isModernVersion(meta[PROTOCOL_VERSION_KEY]);
  });
}
