/**
 * The Playground's own conversation model (issue 15): one shape for messages, tool calls, tool
 * results, tool definitions, usage and provider settings, which provider-anthropic.ts and
 * provider-openai.ts translate to and from each API's wire format. The loop (playground-loop.ts),
 * the page and the proxy all speak this model, so neither needs to know which provider is in use.
 *
 * What crosses the WebSocket later (the conversation, a provider's settings) has a zod schema (messages.ts);
 * a provider's settings name the key (`apiKeyRef`), never hold it: keys live only in the proxy.
 */
import { modelMaySee } from '../apps/meta.ts';
import { cleanName } from '../doctor/providers.ts';
import { parseTools } from '../schema/tool-schema.ts';
import type { AssistantMessage, Message, ProviderConfig, ProviderKind, ToolCall, ToolResult, Usage } from './messages.ts';

// The schemas and their types live in messages.ts (the wire imports them without the helpers below).
export * from './messages.ts';

/** A tool as the model sees it, with the way back to the server that owns it. */
export interface PlaygroundTool {
  /** The name sent to the model. */
  name: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  description?: string;
  inputSchema: unknown;
  /** `annotations.readOnlyHint` is true (advisory: the server says so, nothing proves it). */
  readOnly: boolean;
}

/** What the loop asks a model: everything an adapter needs to build one request. */
export interface ModelRequest {
  system?: string;
  messages: Message[];
  tools: PlaygroundTool[];
}

export type StopReason = 'end' | 'tool_use' | 'max_tokens' | 'other';

export interface ModelReply {
  message: AssistantMessage;
  stopReason: StopReason;
  /** The provider's own word for why it stopped (`end_turn`, `tool_calls`, …). */
  stopReasonRaw?: string;
  usage?: Usage;
  /** The model that answered, when the provider says. */
  model?: string;
}

export type ProviderErrorCode = 'BAD_REQUEST' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'NOT_FOUND' | 'RATE_LIMITED' | 'SERVER_ERROR' | 'BAD_RESPONSE' | 'BAD_STREAM';

export interface ProviderError {
  code: ProviderErrorCode;
  /** One sentence: what happened and what to do. */
  message: string;
  status?: number;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ProviderError };

/** What a streamed reply has added so far, for the page to show as it arrives. */
export type StreamDelta =
  | { type: 'text'; text: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_arguments'; index: number; fragment: string };

/** An incremental reader of one streamed reply: feed it the body's chunks, then end it. */
export interface ReplyStream {
  push(chunk: string | Uint8Array): StreamDelta[];
  end(): Outcome<ModelReply>;
}

export interface ModelInfo {
  id: string;
  name?: string;
}

/** The HTTP side of a provider, as pure functions: the proxy sends, these translate. */
export interface ProviderAdapter {
  kind: ProviderKind;
  /** The URL of the chat endpoint or of the model list. */
  url(baseUrl: string, what: 'chat' | 'models'): string;
  /** Request headers, the key among them (the proxy masks it in traces). */
  headers(apiKey: string | undefined): Record<string, string>;
  body(config: ProviderConfig, request: ModelRequest, stream: boolean): Record<string, unknown>;
  parseReply(json: unknown): Outcome<ModelReply>;
  stream(): ReplyStream;
  /** A failed HTTP response in plain words. */
  httpError(status: number, bodyText: string): ProviderError;
  parseModels(json: unknown): Outcome<ModelInfo[]>;
}

/** Joins `baseUrl` and `path` with one slash, whether or not the user typed a trailing one. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** Reads `text` as arguments: a JSON object, or `{}` and why not (an empty text means no arguments). */
export function readArguments(text: string): Pick<ToolCall, 'arguments' | 'argumentsError'> {
  if (text.trim() === '') return { arguments: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { arguments: {}, argumentsError: `the arguments are not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { arguments: {}, argumentsError: 'the arguments are not a JSON object' };
  return { arguments: value as Record<string, unknown> };
}

/** A tool result as text, for APIs (and parts of them) that take only text. */
export function resultText(result: ToolResult): string {
  const parts = result.content.map((block) => {
    if (block.type === 'text' && typeof block.text === 'string') return block.text;
    if (block.type === 'resource_link') return `[resource link: ${String(block.uri)}]`;
    if (block.type === 'resource' && block.resource !== null && typeof block.resource === 'object') {
      const resource = block.resource as Record<string, unknown>;
      return typeof resource.text === 'string' ? resource.text : `[resource ${String(resource.uri)}: ${String(resource.mimeType ?? 'binary')}]`;
    }
    if (block.type === 'image' || block.type === 'audio') return `[${block.type}: ${String(block.mimeType ?? 'unknown type')}]`;
    return `[${block.type} content]`;
  });
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}

/** The tool calls of an assistant message, in order. */
export function callsOf(message: AssistantMessage): ToolCall[] {
  return message.parts.flatMap((part) => (part.type === 'tool_call' ? [part.call] : []));
}

/** The text of an assistant message. */
export function textOf(message: AssistantMessage): string {
  return message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}

/**
 * The tools of the chosen servers as the model sees them: the tool's own name for one server,
 * `server__tool` for several (so that two servers' `search` stay apart), cleaned to the characters
 * both APIs accept and made unique. `notes` says every rename.
 */
export function buildToolset(servers: readonly { name: string; tools: readonly unknown[] }[]): { tools: PlaygroundTool[]; notes: string[] } {
  const several = servers.length > 1;
  const taken = new Set<string>();
  const tools: PlaygroundTool[] = [];
  const notes: string[] = [];
  for (const server of servers) {
    // MCP Apps (issue 24): a tool whose visibility leaves out "model" is for the server's views only.
    const offered = server.tools.filter((t) => modelMaySee(t));
    const forViews = server.tools.length - offered.length;
    if (forViews > 0) notes.push(`${server.name}: ${forViews === 1 ? '1 tool is' : `${forViews} tools are`} for the server's views only (MCP Apps visibility without "model"), not offered to the model.`);
    const { tools: entries, problems } = parseTools(offered);
    notes.push(...problems.map((p) => `${server.name}: ${p}.`));
    for (const entry of entries) {
      const wanted = several ? `${server.name}__${entry.name}` : entry.name;
      // OpenAI's name rule (letters, digits, _ and -, at most 64) is the narrower of the two APIs'.
      let name = cleanName(wanted, 'openai');
      for (let n = 2; taken.has(name); n++) name = `${cleanName(wanted, 'openai').slice(0, 60)}_${n}`;
      if (name !== wanted) notes.push(`${JSON.stringify(wanted)} is shown to the model as ${JSON.stringify(name)}.`);
      taken.add(name);
      tools.push({ name, server: server.name, tool: entry.name, description: entry.description ?? entry.title, inputSchema: entry.inputSchema, readOnly: entry.hints.readOnlyHint === true });
    }
  }
  return { tools, notes };
}

/** The API and what its detail said → one sentence for the user, and the code a test or the page can match. */
export function httpProblem(api: string, status: number, detail: string | undefined): ProviderError {
  const said = detail === undefined || detail.trim() === '' ? `HTTP ${status}` : `HTTP ${status}: ${detail.trim().slice(0, 500)}`;
  const pick = (code: ProviderErrorCode, message: string): ProviderError => ({ code, status, message });
  if (status === 401) return pick('UNAUTHORIZED', `${api} refused the API key (${said}). Check the key, or the environment variable it comes from.`);
  if (status === 403) return pick('FORBIDDEN', `${api} does not let this key do that (${said}). Check the key's permissions and the account's access to the model.`);
  if (status === 404) return pick('NOT_FOUND', `${api} has no such endpoint or model (${said}). Check the base URL and the model name.`);
  if (status === 429) return pick('RATE_LIMITED', `${api} is limiting requests (${said}). Wait a little, then send again.`);
  if (status >= 500) return pick('SERVER_ERROR', `${api} failed on its side (${said}). Try again in a moment.`);
  return pick('BAD_REQUEST', `${api} refused the request (${said}). Check the model name and the settings.`);
}

/** The body's JSON, or undefined when it is not JSON. */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
