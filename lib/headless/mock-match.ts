/**
 * The answers of a mock MCP server, from a recorded trace (issue 10, `mcp-loupe --mock`): a table of
 * the client's recorded requests with the server's answers, and one `MockConversation` per client
 * that turns what the client sends into what the recorded server would have sent. Pure logic: the
 * transports (stdio, Streamable HTTP) are in proxy/faces/mock/mock.ts.
 *
 * Decisions, so that a client's test suite knows what it talks to:
 * - A request matches by method and the canonical JSON of its params without `_meta` (progress
 *   tokens and other per-run metadata); no params and `{}` are the same. `initialize` matches
 *   whatever the client sends and gets the recorded result as it was, protocolVersion included:
 *   the recording is a conversation in that version.
 * - The same request recorded several times is answered in recorded order, then the last answer
 *   again; an occurrence recorded without its answer is answered with the -32050 error below.
 * - Unmatched: -32601 when the method was never recorded, -32602 when it was (the message and
 *   `data.nearest` name the recorded request with the most similar params), -32050 when the request
 *   was recorded but its answer was not (the trace ended first, or the request timed out).
 *   `ping` is answered `{}` even when never recorded: every MCP peer must answer it.
 * - What the server sent during an exchange is sent, in order, before that answer; progress only
 *   when the client's request asks for it, under the client's own token. What the server sent
 *   outside any exchange is sent after the answer (or the client notification) it followed.
 * - The server's own requests (sampling, elicitation, roots/list) are sent with fresh ids, only to a
 *   client that declared the capability, and never waited for: the recorded answer follows at once
 *   and stands whatever the client replies (its reply is read and dropped).
 * - The client's notifications are accepted silently.
 * - A recording of a 2026-07-28 session (issue 12: an answered `server/discover`, no `initialize`)
 *   makes a 2026-07-28 mock: `server/discover` is answered as recorded, a 2025 `initialize` gets the
 *   -32022 refusal naming 2026-07-28, and the rounds of a call that asked for input are answered in
 *   recorded order (the re-sent request matches without its `inputResponses` and `requestState`).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MODERN_VERSION } from '../model/modern-meta.ts';
import { canonicalJson, type Conversation, type RecordedMessage } from '../trace/exchanges.ts';

type Id = string | number;

const UNSUPPORTED_VERSION = -32022;

/** The error codes the mock answers with. -32050 is ours (JSON-RPC leaves -32000…-32099 to servers). */
export const MOCK_CODES = { methodNotRecorded: -32601, paramsNotRecorded: -32602, recordedWithoutAnswer: -32050 } as const;

/** One recorded occurrence of a request. */
export interface RecordedAnswer {
  /** Seq of the recorded request. */
  seq: number;
  /** Absent when the trace has the request but not its answer (it ended first, or the request timed out). */
  response?: { ok: true; result: unknown } | { ok: false; error: unknown };
  /** What the server sent while it worked, in order. */
  during: RecordedMessage[];
  /** What the server sent on its own after this answer, before the client's next message. */
  after: RecordedMessage[];
}

interface Entry {
  method: string;
  /** Params as recorded, without `_meta`. */
  params: unknown;
  /** In recorded order. */
  answers: RecordedAnswer[];
}

export interface AnswerTable {
  /** By request key (requestKey). */
  entries: Map<string, Entry>;
  byMethod: Map<string, Entry[]>;
  /** What the server sent after the n-th time the client sent a notification of this method. */
  afterNotification: Map<string, RecordedMessage[][]>;
  protocolVersion?: string;
  /** `modern`: a recording of a 2026-07-28 session (no initialize; server/discover answered). */
  era: 'legacy' | 'modern';
  /** Recorded requests with an answer. */
  answered: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Keys that vary per run or per round: `_meta`, and the answers a 2026-07-28 request re-sends with. */
const PER_RUN_KEYS = new Set(['_meta', 'inputResponses', 'requestState']);

/** Params without `_meta` (nor a re-sent round's inputs); an empty object is no params at all. */
export function paramsWithoutMeta(params: unknown): unknown {
  if (!isObject(params)) return params;
  const rest = Object.entries(params).filter(([key]) => !PER_RUN_KEYS.has(key));
  return rest.length === 0 ? undefined : Object.fromEntries(rest);
}

/** What two requests must share to get the same answer. */
export function requestKey(method: string, params: unknown): string {
  if (method === 'initialize') return method;
  const stripped = paramsWithoutMeta(params);
  return stripped === undefined ? method : `${method} ${canonicalJson(stripped)}`;
}

const progressTokenOf = (params: unknown): unknown => (isObject(params) && isObject(params._meta) ? params._meta.progressToken : undefined);

export function buildAnswerTable(conversation: Conversation): { ok: true; table: AnswerTable } | { ok: false; error: string } {
  const initialize = conversation.exchanges.filter((e) => e.method === 'initialize');
  const discovered = conversation.exchanges.find((e) => e.method === 'server/discover' && e.response?.ok);
  const modern = initialize.length === 0 && discovered !== undefined;
  if (initialize.length === 0 && !modern) return { ok: false, error: 'This trace has no initialize exchange (nor an answered server/discover), so the mock cannot answer a client’s initialize: record the session from the moment it connects.' };
  if (!modern && !initialize.some((e) => e.response?.ok)) return { ok: false, error: 'The initialize request in this trace has no successful answer, so the mock has nothing to answer a client’s initialize with: record a session that connected.' };
  const table: AnswerTable = { entries: new Map(), byMethod: new Map(), afterNotification: new Map(), answered: 0, era: modern ? 'modern' : 'legacy', ...(modern ? { protocolVersion: MODERN_VERSION } : {}) };
  const answers = new Map<number, RecordedAnswer>();
  for (const exchange of conversation.exchanges) {
    const key = requestKey(exchange.method, exchange.params);
    let entry = table.entries.get(key);
    if (!entry) {
      entry = { method: exchange.method, params: exchange.method === 'initialize' ? undefined : paramsWithoutMeta(exchange.params), answers: [] };
      table.entries.set(key, entry);
      const same = table.byMethod.get(entry.method);
      if (same) same.push(entry);
      else table.byMethod.set(entry.method, [entry]);
    }
    const recorded = exchange.response;
    const response: RecordedAnswer['response'] = !recorded ? undefined : recorded.ok ? { ok: true, result: recorded.result } : { ok: false, error: recorded.error };
    const answer: RecordedAnswer = { seq: exchange.seq, response, during: [], after: [] };
    entry.answers.push(answer);
    if (!recorded) continue;
    answers.set(exchange.seq, answer);
    table.answered += 1;
    if (exchange.method === 'initialize' && recorded.ok && table.protocolVersion === undefined && isObject(recorded.result)) {
      const version = recorded.result.protocolVersion;
      if (typeof version === 'string') table.protocolVersion = version;
    }
  }
  placeServerMessages(conversation, answers, table);
  return { ok: true, table };
}

/**
 * Where each server message is replayed. Progress goes to the request whose token it carries (the
 * conversation pairs by "the latest open request", which is a guess when requests overlap); a
 * message during a request that was never answered, or outside any, goes after whatever the client
 * last got an answer to or sent as a notification.
 */
function placeServerMessages(conversation: Conversation, answers: Map<number, RecordedAnswer>, table: AnswerTable): void {
  const answered = conversation.exchanges.filter((e) => e.response);
  const byToken = new Map<string, typeof answered>();
  for (const e of answered) {
    const token = progressTokenOf(e.params);
    if (token !== undefined) byToken.set(canonicalJson(token), [...(byToken.get(canonicalJson(token)) ?? []), e]);
  }
  const anchors = answered.map((e) => ({ seq: e.response?.seq ?? e.seq, target: (answers.get(e.seq) as RecordedAnswer).after }));
  for (const n of conversation.clientNotifications) {
    const list = table.afterNotification.get(n.method) ?? [];
    table.afterNotification.set(n.method, list);
    list.push([]);
    anchors.push({ seq: n.seq, target: list[list.length - 1] });
  }
  anchors.sort((a, b) => a.seq - b.seq);
  // Both lists are in trace order: one pass finds, for each message, the last anchor before it.
  let anchor = 0;
  for (const { during, ...recorded } of conversation.serverMessages) {
    while (anchor + 1 < anchors.length && anchors[anchor + 1].seq < recorded.seq) anchor += 1;
    if (recorded.method === 'notifications/progress') {
      const token = canonicalJson((recorded.params as { progressToken?: unknown } | undefined)?.progressToken);
      const owner = byToken.get(token)?.find((e) => e.seq < recorded.seq && recorded.seq < (e.response?.seq ?? 0));
      // Progress after its answer (or for a token nobody asked for) is noise a client would reject.
      if (owner) answers.get(owner.seq)?.during.push(recorded);
      continue;
    }
    const current = during === undefined ? undefined : answers.get(during);
    if (current) current.during.push(recorded);
    else anchors[anchor]?.target.push(recorded);
  }
}

/** One message for the client; `relatedRequestId`: the client's request it belongs to (HTTP sends it on that request's stream). */
export interface Outgoing {
  message: JSONRPCMessage;
  relatedRequestId?: Id;
}

export interface MockReply {
  send: Outgoing[];
  /** Lines for the operator (stderr), not for the client. */
  log: string[];
}

/** The capability a client must declare before a server may send it this request. */
const NEEDS_CAPABILITY: Record<string, string> = { 'sampling/createMessage': 'sampling', 'elicitation/create': 'elicitation', 'roots/list': 'roots' };

/** One client's conversation with the mock: each client gets the recording from its start. */
export class MockConversation {
  private readonly table: AnswerTable;
  private readonly served = new Map<string, number>();
  private readonly notified = new Map<string, number>();
  private capabilities: Record<string, unknown> = {};
  private nextId = 1;

  constructor(table: AnswerTable) {
    this.table = table;
  }

  /** What to send for one message from the client (already a JSON-RPC object: the transport parsed it). */
  receive(message: JSONRPCMessage): MockReply {
    const reply: MockReply = { send: [], log: [] };
    if (!('method' in message)) return reply; // the client's answer to one of our requests: not waited for
    if (!('id' in message)) {
      const count = this.notified.get(message.method) ?? 0;
      this.notified.set(message.method, count + 1);
      this.replay(this.table.afterNotification.get(message.method)?.[count] ?? [], undefined, undefined, reply);
      return reply;
    }
    if (message.method === 'initialize' && this.table.era === 'modern') {
      const requested = isObject(message.params) ? message.params.protocolVersion : undefined;
      const error = { code: UNSUPPORTED_VERSION, message: `Unsupported protocol version: this mock replays a 2026-07-28 recording, which has no initialize.`, data: { supported: [MODERN_VERSION], requested } };
      reply.send.push({ message: { jsonrpc: '2.0', id: message.id, error } as JSONRPCMessage });
      reply.log.push(`Loupe mock: refused a 2025 initialize (this recording is of a 2026-07-28 session).`);
      return reply;
    }
    if (message.method === 'initialize') {
      const capabilities = isObject(message.params) ? message.params.capabilities : undefined;
      this.capabilities = isObject(capabilities) ? capabilities : {};
    }
    this.answer(message.id, message.method, message.params, reply);
    return reply;
  }

  private answer(id: Id, method: string, params: unknown, reply: MockReply): void {
    const key = requestKey(method, params);
    const entry = this.table.entries.get(key);
    if (!entry && method === 'ping') {
      reply.send.push({ message: { jsonrpc: '2.0', id, result: {} } });
      return;
    }
    const count = this.served.get(key) ?? 0;
    if (entry) this.served.set(key, count + 1);
    // In recorded order (a recorded timeout is replayed as one), then the last answered again.
    const answer = entry && (entry.answers[count] ?? entry.answers.findLast((a) => a.response));
    const response = answer?.response;
    if (!answer || !response) {
      const error = entry ? notAnswered(method, params) : unmatched(method, params, this.table);
      reply.send.push({ message: { jsonrpc: '2.0', id, error } });
      reply.log.push(error.message);
      return;
    }
    this.replay(answer.during, id, progressTokenOf(params), reply);
    reply.send.push({ message: (response.ok ? { jsonrpc: '2.0', id, result: response.result } : { jsonrpc: '2.0', id, error: response.error }) as JSONRPCMessage });
    this.replay(answer.after, undefined, undefined, reply);
  }

  /** Recorded server messages, as this client should get them (fresh ids, its progress token). */
  private replay(messages: readonly RecordedMessage[], related: Id | undefined, progressToken: unknown, reply: MockReply): void {
    for (const recorded of messages) {
      let params = recorded.params;
      if (recorded.method === 'notifications/progress') {
        if (progressToken === undefined || related === undefined) continue;
        params = { ...(params as Record<string, unknown>), progressToken };
      }
      const base = { jsonrpc: '2.0' as const, method: recorded.method, ...(params === undefined ? {} : { params }) };
      if (recorded.id === undefined) {
        reply.send.push({ message: base as JSONRPCMessage, relatedRequestId: related });
        continue;
      }
      const capability = NEEDS_CAPABILITY[recorded.method];
      if (capability && this.capabilities[capability] === undefined) {
        reply.log.push(`Loupe mock: skipped the recorded ${recorded.method} request: this client did not declare the ${capability} capability.`);
        continue;
      }
      reply.send.push({ message: { ...base, id: `loupe-mock-${this.nextId++}` } as JSONRPCMessage, relatedRequestId: related });
    }
  }
}

const SHOWN = 200;

/** A request in plain words: the method and its params (as sent, without `_meta`), cut to a readable length. */
export function describeRequest(method: string, params: unknown): string {
  const stripped = paramsWithoutMeta(params);
  if (stripped === undefined) return method;
  const text = JSON.stringify(stripped) ?? String(stripped);
  return `${method} ${text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text}`;
}

function notAnswered(method: string, params: unknown): { code: number; message: string; data: unknown } {
  return {
    code: MOCK_CODES.recordedWithoutAnswer,
    message: `Loupe mock: ${describeRequest(method, params)} was recorded but its answer was not (the trace ended, or the request timed out, before the server answered).`,
    data: { recorded: { method, params: paramsWithoutMeta(params) } },
  };
}

function unmatched(method: string, params: unknown, table: AnswerTable): { code: number; message: string; data: unknown } {
  const request = describeRequest(method, params);
  const candidates = table.byMethod.get(method);
  if (!candidates) {
    const methods = [...table.byMethod.keys()];
    const listed = methods.slice(0, 12).join(', ') + (methods.length > 12 ? ', …' : '');
    return { code: MOCK_CODES.methodNotRecorded, message: `Loupe mock: no recorded answer for ${request}: the recording has no ${method} request (it has ${listed}).`, data: { recordedMethods: methods } };
  }
  const nearest = nearestEntry(paramsWithoutMeta(params), candidates);
  return {
    code: MOCK_CODES.paramsNotRecorded,
    message: `Loupe mock: no recorded answer for ${request}; nearest recorded: ${describeRequest(method, nearest.params)}`,
    data: { nearest: { method, params: nearest.params } },
  };
}

/**
 * The recorded request whose params share the most with these: both are flattened into
 * `path=value` leaves and compared by the share of leaves they have in common (Jaccard), which
 * favours a call that differs in one argument over one that differs in all. Earliest wins a tie.
 */
export function nearestEntry<T extends { params: unknown }>(params: unknown, candidates: readonly T[]): T {
  const wanted = leaves(params);
  let best = candidates[0];
  let bestScore = -1;
  for (const candidate of candidates) {
    const score = similarity(wanted, leaves(candidate.params));
    if (score > bestScore) [best, bestScore] = [candidate, score];
  }
  return best;
}

/** Enough leaves to tell calls apart; a huge params object costs no more than this. */
const LEAF_CAP = 2000;

function leaves(value: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (node: unknown, path: string) => {
    if (out.size >= LEAF_CAP) return;
    const keys = Array.isArray(node) ? node.map((_, i) => String(i)) : isObject(node) ? Object.keys(node).sort() : [];
    if (keys.length === 0) out.add(`${path}=${canonicalJson(node)}`);
    for (const key of keys) walk((node as Record<string, unknown>)[key], `${path}/${key}`);
  };
  if (value !== undefined) walk(value, '');
  return out;
}

function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const leaf of a) if (b.has(leaf)) shared += 1;
  return shared / (a.size + b.size - shared);
}
