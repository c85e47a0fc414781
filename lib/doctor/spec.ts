/**
 * Spec validation of frames (issue 14): one JSON-RPC frame checked against the schema of the
 * protocol version its session speaks, with the schemas the SDK packages publish rather than a
 * copy of ours:
 * - a 2025 session: the 1.x SDK's Zod schemas (`@modelcontextprotocol/sdk/types.js`, the
 *   2025-11-25 generation; the earlier versions only lack optional members, so a frame valid
 *   under them is valid here);
 * - a 2026-07-28 session: the v2 `@modelcontextprotocol/core` schemas, the very Zod objects the v2
 *   client publishes as `specTypeSchemas` (imported from core, which is only schemas, because the
 *   client's entry point brings its transports along). They are the SDK's neutral model: the 2026
 *   wire-only members (`resultType`, the `_meta` envelope keys, cache hints) are not in them — the
 *   SDK keeps its per-revision wire validators private — and trace-violations-modern.ts checks
 *   `resultType` itself.
 *
 * A response is checked against the result schema of the request it answers (the caller pairs
 * them). Only real violations count: where the SDK's schemas are stricter than the spec, their
 * issue is dropped (`spurious`). Pure and synchronous; the 2026 schemas are imported on first
 * need (`loadSpecSchemas`), so a 2025 session never loads them.
 */
import * as v1 from '@modelcontextprotocol/sdk/types.js';
import { issueTexts, pathText, typeName, valueAt, type Issue } from './spec-issues.ts';
import type { Finding } from '../model/doctor.ts';
import { MODERN_VERSION } from '../model/modern-meta.ts';
import type { FrameEvent, SpecEvent, TraceEvent } from '../wire/events.ts';
// Not from events.ts, which builds every trace event's zod schema: the proxy loads this module at start (issue 23).
import { schemaReferenceUrl } from '../wire/constants.ts';

export type SpecEra = 'legacy' | 'modern';
type Dir = 'in' | 'out';

export interface FrameContext {
  /** `out`: Loupe → server. */
  dir: Dir;
  era: SpecEra;
  /** For a response: the method of the request it answers. */
  requestMethod?: string;
  /** The negotiated version (a 2025 session); decides which dated schema is named. */
  protocolVersion?: string;
}

export interface FrameCheck {
  /** The schema version checked against. */
  version: string;
  /** The types the frame breaks, e.g. `ListToolsResult` or `JSONRPCRequest, CallToolRequest`. */
  schema: string;
  /** Short plain paths with what is wrong: `result.tools[2].inputSchema: required`. */
  issues: string[];
}

/** Issues kept per frame, and characters per issue: a frame wrong everywhere must not make a huge event. */
const MAX_ISSUES = 8;
const MAX_ISSUE_CHARS = 240;

interface Checker {
  safeParse(value: unknown): { success: boolean; error?: { issues: Issue[] } };
}
interface Named {
  name: string;
  schema: Checker;
}
interface SchemaSet {
  envelope: Record<'request' | 'notification' | 'response' | 'error', Named>;
  /** By sender: `out` is what the client sends, `in` what the server sends. */
  requests: Record<Dir, Map<string, Named>>;
  notifications: Record<Dir, Map<string, Named>>;
  results: Map<string, Named>;
}

/**
 * The result type of each request method, in the spec's names (the spec pairs them in its
 * ResultTypeMap; neither SDK exports that pairing at run time). Sampling is checked against the
 * variant that allows tool use, which is the whole of the spec's CreateMessageResult.
 */
const RESULTS: Readonly<Record<string, string>> = {
  initialize: 'InitializeResult',
  ping: 'EmptyResult',
  'completion/complete': 'CompleteResult',
  'logging/setLevel': 'EmptyResult',
  'prompts/get': 'GetPromptResult',
  'prompts/list': 'ListPromptsResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'resources/subscribe': 'EmptyResult',
  'resources/unsubscribe': 'EmptyResult',
  'tools/call': 'CallToolResult',
  'tools/list': 'ListToolsResult',
  'sampling/createMessage': 'CreateMessageResultWithTools',
  'elicitation/create': 'ElicitResult',
  'roots/list': 'ListRootsResult',
  'tasks/get': 'GetTaskResult',
  'tasks/result': 'GetTaskPayloadResult',
  'tasks/list': 'ListTasksResult',
  'tasks/cancel': 'CancelTaskResult',
  'server/discover': 'DiscoverResult',
  'subscriptions/listen': 'SubscriptionsListenResult',
};

type SchemaModule = Record<string, unknown>;

function named(module: SchemaModule, name: string): Named | undefined {
  const schema = module[`${name}Schema`] as Checker | undefined;
  return schema && typeof schema.safeParse === 'function' ? { name: name.replace(/WithTools$/, ''), schema } : undefined;
}

/** Method → schema for the members of one of the SDK's unions (ClientRequest, ServerNotification, …), named by their exports. */
function membersOf(module: SchemaModule, union: string): Map<string, Named> {
  const options = (module[`${union}Schema`] as { options?: readonly unknown[] } | undefined)?.options ?? [];
  const out = new Map<string, Named>();
  for (const [key, value] of Object.entries(module)) {
    if (!key.endsWith('Schema') || !options.includes(value)) continue;
    const method = (value as { shape?: { method?: { value?: unknown } } }).shape?.method?.value;
    // Should the SDK export a member under a second name too, the first (in the module's order) is kept.
    if (typeof method === 'string' && !out.has(method)) out.set(method, { name: key.slice(0, -'Schema'.length), schema: value as Checker });
  }
  return out;
}

function buildSet(module: SchemaModule): SchemaSet {
  const need = (name: string): Named => {
    const found = named(module, name);
    if (!found) throw new Error(`The SDK's schemas no longer export ${name}Schema; lib/doctor/spec.ts must follow.`);
    return found;
  };
  const results = new Map<string, Named>();
  for (const [method, name] of Object.entries(RESULTS)) {
    const found = named(module, name);
    if (found) results.set(method, found);
  }
  return {
    envelope: { request: need('JSONRPCRequest'), notification: need('JSONRPCNotification'), response: need('JSONRPCResultResponse'), error: need('JSONRPCErrorResponse') },
    requests: { out: membersOf(module, 'ClientRequest'), in: membersOf(module, 'ServerRequest') },
    notifications: { out: membersOf(module, 'ClientNotification'), in: membersOf(module, 'ServerNotification') },
    results,
  };
}

let legacySet: SchemaSet | undefined;
let modernSet: SchemaSet | undefined;
let modernLoading: Promise<void> | undefined;

function schemaSet(era: SpecEra): SchemaSet | undefined {
  if (era === 'legacy') return (legacySet ??= buildSet(v1 as unknown as SchemaModule));
  return modernSet;
}

/** Loads the schemas of a generation (the 2026 ones are imported on first need); idempotent. */
export function loadSpecSchemas(era: SpecEra): Promise<void> {
  if (era === 'legacy' || modernSet) return Promise.resolve();
  modernLoading ??= import('@modelcontextprotocol/core').then((module) => {
    modernSet = buildSet(module as unknown as SchemaModule);
  });
  return modernLoading;
}

/** The dated schema a frame of this session is checked against. */
export function schemaVersion(era: SpecEra, protocolVersion?: string): string {
  if (era === 'modern') return MODERN_VERSION;
  return protocolVersion !== undefined && v1.SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion) ? protocolVersion : v1.LATEST_PROTOCOL_VERSION;
}

// ---------------------------------------------------------------------------------------------
// One frame.

interface Found {
  schemas: string[];
  issues: string[];
}

function check(found: Found, target: Named, value: unknown, root: unknown, base: readonly PropertyKey[]): void {
  const parsed = target.schema.safeParse(value);
  if (parsed.success || !parsed.error) return;
  const texts = issueTexts(parsed.error.issues, root, base);
  if (texts.length === 0) return;
  found.schemas.push(target.name);
  found.issues.push(...texts);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Which result schema applies: none for a 2026 result that is not complete (its resultType says what it is). */
function resultSchema(set: SchemaSet, era: SpecEra, method: string | undefined, result: unknown): Named | undefined {
  if (method === undefined || !isObject(result)) return method === undefined ? undefined : set.results.get(method);
  if (era === 'modern') return result.resultType === undefined || result.resultType === 'complete' ? set.results.get(method) : undefined;
  // A task-augmented request (2025-11-25 tasks) is answered with a task handle.
  if (isObject(result.task)) return named(v1 as unknown as SchemaModule, 'CreateTaskResult');
  return set.results.get(method);
}

/** One JSON-RPC message at `base` in the frame's value `root` (a batch holds several). */
function checkMessage(found: Found, set: SchemaSet, root: unknown, context: FrameContext, base: readonly PropertyKey[]): void {
  const message = valueAt(root, base);
  if (!isObject(message)) {
    found.schemas.push('JSONRPCMessage');
    found.issues.push(`${pathText(base)}: expected a JSON-RPC message (an object), got ${typeName(message)}`);
    return;
  }
  const method = typeof message.method === 'string' ? message.method : undefined;
  const sent = set.requests[context.dir];
  if (method !== undefined && 'id' in message) {
    check(found, set.envelope.request, message, root, base);
    const request = sent.get(method);
    if (request) check(found, request, message, root, base);
    else if (set.notifications[context.dir].has(method)) {
      found.schemas.push('JSONRPCNotification');
      found.issues.push(`${pathText([...base, 'id'])}: ${method} is a notification, so it must not carry an id`);
    }
  } else if (method !== undefined) {
    check(found, set.envelope.notification, message, root, base);
    const notification = set.notifications[context.dir].get(method);
    if (notification) check(found, notification, message, root, base);
    else if (sent.has(method)) {
      found.schemas.push('JSONRPCRequest');
      found.issues.push(`${pathText([...base, 'id'])}: required (${method} is a request)`);
    }
  } else if ('result' in message && 'error' in message) {
    found.schemas.push('JSONRPCResponse');
    found.issues.push(`${pathText(base)}: has both "result" and "error"; a response carries exactly one of them`);
  } else if ('result' in message) {
    check(found, set.envelope.response, message, root, base);
    const result = resultSchema(set, context.era, context.requestMethod, message.result);
    if (result) check(found, result, message.result, root, [...base, 'result']);
  } else if ('error' in message) {
    check(found, set.envelope.error, message, root, base);
  } else {
    found.schemas.push('JSONRPCMessage');
    found.issues.push(`${pathText(base)}: neither a request, a notification nor a response (no "method", "result" or "error")`);
  }
}

/**
 * The frame checked against its version's schema: what it breaks, or undefined when it is valid
 * or cannot be checked (not JSON: the tap records that as stdout noise; a 2026 session whose
 * schemas `loadSpecSchemas('modern')` has not loaded yet). Methods the spec does not define are
 * checked as JSON-RPC only.
 */
export function validateFrame(raw: string, context: FrameContext, parsed?: { value: unknown }): FrameCheck | undefined {
  const set = schemaSet(context.era);
  if (!set) return undefined;
  let message: unknown;
  if (parsed) message = parsed.value;
  else {
    try {
      message = JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  const version = schemaVersion(context.era, context.protocolVersion);
  const found: Found = { schemas: [], issues: [] };
  if (Array.isArray(message) && version === '2025-03-26') {
    // The one version with JSON-RPC batches; their responses cannot be paired here.
    message.forEach((_, i) => checkMessage(found, set, message, { ...context, requestMethod: undefined }, [i]));
  } else if (Array.isArray(message)) {
    found.schemas.push('JSONRPCMessage');
    found.issues.push(`(frame): a JSON-RPC batch, which ${version} does not allow (only 2025-03-26 did)`);
  } else {
    checkMessage(found, set, message, context, []);
  }
  if (found.issues.length === 0) return undefined;
  const unique = [...new Set(found.issues)].map((text) => (text.length > MAX_ISSUE_CHARS ? `${text.slice(0, MAX_ISSUE_CHARS - 1)}…` : text));
  const issues = unique.length > MAX_ISSUES ? [...unique.slice(0, MAX_ISSUES - 1), `… and ${unique.length - MAX_ISSUES + 1} more`] : unique;
  return { version, schema: [...new Set(found.schemas)].join(', '), issues };
}

// ---------------------------------------------------------------------------------------------
// The doctor's findings.

/** One sentence on how to fix it, for the problems a server makes most. */
function fixFor(event: SpecEvent, what: string): string {
  const all = event.issues.join('\n');
  if (/^jsonrpc:/m.test(all)) return 'Send "jsonrpc": "2.0" in every message.';
  if (all.includes('has both "result" and "error"')) return 'Answer each request with either "result" or "error", never both.';
  if (all.includes('must not carry an id')) return 'Send notifications without an "id"; only requests have one.';
  return `Make the server's ${what} match the ${event.schema} definition in the ${event.version} schema reference.`;
}

/** What kind of message a frame is, in words (one the tap could not classify by the shape it meant). */
function kindWord(frame: FrameEvent | undefined): string {
  if (!frame) return 'message';
  if (frame.rpc === 'error') return 'error response';
  if (frame.rpc !== 'invalid') return frame.rpc;
  if (frame.method !== undefined) return frame.id === undefined ? 'notification' : 'request';
  return frame.id === undefined ? 'message' : 'response';
}

/** The method each wanted frame is about: its own, or for a response its request's (paired as the trace index does). */
function methodsOf(events: readonly TraceEvent[], wanted: ReadonlySet<number>): Map<number, { frame: FrameEvent; method?: string }> {
  const requests = new Map<string, string>();
  const out = new Map<number, { frame: FrameEvent; method?: string }>();
  const key = (dir: Dir, id: string | number) => `${dir}\u0000${typeof id}\u0000${String(id)}`;
  for (const event of events) {
    if (event.kind !== 'frame') continue;
    // A view's frames (MCP Apps, issue 24) have ids of their own: kept as they are, never paired with the server's.
    if (event.view !== undefined) {
      if (wanted.has(event.seq)) out.set(event.seq, { frame: event, method: event.method });
      continue;
    }
    if (event.method !== undefined && event.id !== undefined) requests.set(key(event.dir, event.id), event.method);
    if (!wanted.has(event.seq)) continue;
    const method = event.method ?? (event.id === undefined ? undefined : requests.get(key(event.dir === 'in' ? 'out' : 'in', event.id)));
    out.set(event.seq, { frame: event, method });
  }
  return out;
}

/**
 * The spec events of a trace as doctor findings, one per frame the server sent that breaks its
 * schema; frames broken the same way are one finding that counts them (a flood of one bad
 * notification is one problem). Frames Loupe sent (its own, or written by hand) are not the
 * server's doing and are left to the History; nor are the frames of an MCP Apps view.
 */
export function specFindingsOf(events: readonly TraceEvent[]): Finding[] {
  const specs = events.filter((e): e is SpecEvent => e.kind === 'spec');
  if (specs.length === 0) return [];
  const frames = methodsOf(events, new Set(specs.map((s) => s.of)));
  const groups = new Map<string, { event: SpecEvent; method?: string; frame?: FrameEvent; count: number }>();
  for (const spec of specs) {
    const known = frames.get(spec.of);
    // Neither Loupe's own frames nor a view's (issue 24) are the server's doing.
    if (known?.frame.dir === 'out' || known?.frame.view !== undefined) continue;
    const key = `${known?.method ?? ''}\u0000${spec.version}\u0000${spec.schema}\u0000${spec.issues.join('\n')}`;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { event: spec, method: known?.method, frame: known?.frame, count: 1 });
  }
  return [...groups.values()].map(({ event, method, frame, count }): Finding => {
    const what = method === undefined ? kindWord(frame) : `${method} ${kindWord(frame)}`;
    const more = count > 1 ? ` (and ${count - 1} more frame${count > 2 ? 's' : ''} like it)` : '';
    return {
      severity: 'error',
      about: { kind: 'frame', seq: event.of, ...(method === undefined ? {} : { method }) },
      rule: 'spec-schema',
      message: `The server's ${what} #${event.of} breaks the ${event.version} schema (${event.schema}): ${event.issues.join('; ')}${more}.`,
      fix: fixFor(event, what),
      source: { label: `MCP ${event.version} schema: ${event.schema.split(', ')[0]}`, url: schemaReferenceUrl(event.version) },
    };
  });
}
