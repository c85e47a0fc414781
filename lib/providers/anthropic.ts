/**
 * The Anthropic Messages API (POST /v1/messages, GET /v1/models) ↔ the Playground's conversation
 * model (playground-types.ts), as pure functions: the proxy does the HTTP, this translates.
 *
 * Wire shapes: tools as `{name, description, input_schema}`; the assistant's calls as `tool_use`
 * blocks; results as `tool_result` blocks in the next user message (images kept as image blocks);
 * a stream as `message_start`, `content_block_start/delta/stop` (`text_delta`, `input_json_delta`),
 * `message_delta` (stop reason, output tokens), `message_stop`, with `ping` and `error` between.
 * https://docs.anthropic.com/en/api/messages, https://docs.anthropic.com/en/api/messages-streaming
 */
import { cleanSchemaFor } from '../doctor/providers.ts';
import {
  callsOf,
  httpProblem,
  joinUrl,
  jsonOf,
  readArguments,
  resultText,
  type AssistantPart,
  type Message,
  type ModelInfo,
  type ModelReply,
  type ModelRequest,
  type Outcome,
  type ProviderAdapter,
  type ProviderConfig,
  type ProviderError,
  type ReplyStream,
  type StopReason,
  type StreamDelta,
  type ToolResult,
  type Usage,
} from '../playground/types.ts';
import { createSseReader } from './sse-lines.ts';
import { ANTHROPIC_BASE_URL } from './base-urls.ts';
import { isObj, num, str, type Obj } from '../json/json-values.ts';


export { ANTHROPIC_BASE_URL };
export const ANTHROPIC_VERSION = '2023-06-01';
/** The Messages API requires `max_tokens`; this is what is asked when the user sets none. */
export const ANTHROPIC_MAX_TOKENS = 4096;
const API = 'The Anthropic API';
/** The image types a `tool_result` may carry as an image block. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function resultContent(result: ToolResult): unknown[] {
  const out: unknown[] = [];
  for (const block of result.content) {
    if (block.type === 'image' && typeof block.data === 'string' && IMAGE_TYPES.has(String(block.mimeType))) {
      out.push({ type: 'image', source: { type: 'base64', media_type: block.mimeType, data: block.data } });
    } else {
      const text = resultText({ ...result, content: [block] });
      if (text !== '') out.push({ type: 'text', text });
    }
  }
  if (out.length === 0) {
    const text = resultText(result);
    if (text !== '') out.push({ type: 'text', text });
  }
  return out;
}

function wireContent(message: Message): unknown[] {
  if (message.role === 'user') return message.text === '' ? [] : [{ type: 'text', text: message.text }];
  if (message.role === 'tool') {
    return message.results.map((r) => {
      const content = resultContent(r);
      return { type: 'tool_result', tool_use_id: r.callId, ...(content.length > 0 ? { content } : {}), ...(r.isError ? { is_error: true } : {}) };
    });
  }
  // Empty text blocks are refused by the API, and a streamed turn can leave one behind.
  return message.parts.flatMap((part): unknown[] => {
    if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    return [{ type: 'tool_use', id: part.call.id, name: part.call.name, input: part.call.arguments }];
  });
}

/** The conversation as Messages API `messages`: tool results travel as user content, and neighbours of one role are merged. */
export function anthropicMessages(messages: readonly Message[]): { role: 'user' | 'assistant'; content: unknown[] }[] {
  const out: { role: 'user' | 'assistant'; content: unknown[] }[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const content = wireContent(message);
    if (content.length === 0) continue;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...content);
    else out.push({ role, content });
  }
  return out;
}

function body(config: ProviderConfig, request: ModelRequest, stream: boolean): Record<string, unknown> {
  const tools = request.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), input_schema: cleanSchemaFor('anthropic', t.inputSchema).schema }));
  return {
    model: config.model,
    max_tokens: config.maxTokens ?? ANTHROPIC_MAX_TOKENS,
    ...(request.system ? { system: request.system } : {}),
    messages: anthropicMessages(request.messages),
    ...(tools.length > 0 ? { tools } : {}),
    ...(stream ? { stream: true } : {}),
  };
}

function stopReason(raw: string | undefined): StopReason {
  if (raw === 'end_turn' || raw === 'stop_sequence') return 'end';
  if (raw === 'tool_use') return 'tool_use';
  if (raw === 'max_tokens') return 'max_tokens';
  return 'other';
}

function usageOf(raw: unknown, before?: Usage): Usage | undefined {
  if (!isObj(raw)) return before;
  const input = num(raw.input_tokens) ?? before?.inputTokens ?? 0;
  const output = num(raw.output_tokens) ?? before?.outputTokens ?? 0;
  return { inputTokens: input, outputTokens: output };
}

const badResponse = (why: string): ProviderError => ({ code: 'BAD_RESPONSE', message: `${API} sent a reply Loupe cannot read: ${why}.` });

/** The detail of an `{"type":"error","error":{"type","message"}}` body. */
function errorDetail(json: unknown): string | undefined {
  if (!isObj(json) || !isObj(json.error)) return undefined;
  const type = str(json.error.type);
  const message = str(json.error.message);
  return [type, message].filter((s) => s !== undefined).join(': ') || undefined;
}

function parseReply(json: unknown): Outcome<ModelReply> {
  if (isObj(json) && json.type === 'error') return { ok: false, error: { code: 'SERVER_ERROR', message: `${API} answered with an error (${errorDetail(json) ?? 'no detail'}). Try again, or check the settings.` } };
  if (!isObj(json) || !Array.isArray(json.content)) return { ok: false, error: badResponse('it has no "content" list') };
  const parts: AssistantPart[] = [];
  for (const block of json.content) {
    if (!isObj(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') parts.push({ type: 'text', text: block.text });
    if (block.type === 'tool_use') {
      const id = str(block.id);
      const name = str(block.name);
      if (id === undefined || name === undefined) return { ok: false, error: badResponse('a tool_use block has no id or name') };
      const input = block.input ?? {};
      const argumentsText = JSON.stringify(input);
      const read = isObj(input) ? { arguments: input } : readArguments(argumentsText);
      parts.push({ type: 'tool_call', call: { id, name, argumentsText, ...read } });
    }
  }
  const raw = str(json.stop_reason);
  return { ok: true, value: { message: { role: 'assistant', parts }, stopReason: stopReason(raw), stopReasonRaw: raw, usage: usageOf(json.usage), model: str(json.model) } };
}

type Block = { kind: 'text'; text: string } | { kind: 'tool'; id: string; name: string; json: string; input: unknown };

const badStream = (why: string): ProviderError => ({ code: 'BAD_STREAM', message: `${API}'s stream broke off or could not be read: ${why}. Send the message again.` });

/** A streamed reply's blocks, in the order of their index, as the reply's parts. */
function partsOf(blocks: Map<number, Block>): AssistantPart[] {
  return [...blocks.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, block]): AssistantPart => {
      if (block.kind === 'text') return { type: 'text', text: block.text };
      // No input_json_delta at all: the input came whole in content_block_start.
      const text = block.json === '' && isObj(block.input) && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : block.json;
      return { type: 'tool_call', call: { id: block.id, name: block.name, argumentsText: text, ...readArguments(text) } };
    });
}

/** One streamed reply, read as it arrives. */
function stream(): ReplyStream {
  const sse = createSseReader();
  const blocks = new Map<number, Block>();
  let started = false;
  let stopped = false;
  let failure: ProviderError | undefined;
  let usage: Usage | undefined;
  let model: string | undefined;
  let raw: string | undefined;

  const handle = (type: string, data: Obj, deltas: StreamDelta[]): void => {
    const index = num(data.index) ?? -1;
    if (type === 'message_start' && isObj(data.message)) {
      started = true;
      model = str(data.message.model);
      usage = usageOf(data.message.usage);
    } else if (type === 'content_block_start' && isObj(data.content_block)) {
      const cb = data.content_block;
      if (cb.type === 'text') blocks.set(index, { kind: 'text', text: str(cb.text) ?? '' });
      if (cb.type === 'tool_use') {
        const block: Block = { kind: 'tool', id: str(cb.id) ?? '', name: str(cb.name) ?? '', json: '', input: cb.input };
        blocks.set(index, block);
        deltas.push({ type: 'tool_call_start', index, id: block.id, name: block.name });
      }
    } else if (type === 'content_block_delta' && isObj(data.delta)) {
      const block = blocks.get(index);
      const text = str(data.delta.text);
      const partial = str(data.delta.partial_json);
      if (data.delta.type === 'text_delta' && block?.kind === 'text' && text !== undefined) {
        block.text += text;
        deltas.push({ type: 'text', text });
      } else if (data.delta.type === 'input_json_delta' && block?.kind === 'tool' && partial !== undefined) {
        block.json += partial;
        deltas.push({ type: 'tool_call_arguments', index, fragment: partial });
      } else if (block === undefined) failure = badStream(`a delta came for block ${index}, which never started`);
    } else if (type === 'message_delta') {
      if (isObj(data.delta)) raw = str(data.delta.stop_reason) ?? raw;
      usage = usageOf(data.usage, usage);
    } else if (type === 'message_stop') stopped = true;
    else if (type === 'error') failure = { code: 'SERVER_ERROR', message: `${API} stopped the reply with an error (${errorDetail(data) ?? 'no detail'}). Try again in a moment.` };
  };

  const read = (events: { event?: string; data: string }[]): StreamDelta[] => {
    const deltas: StreamDelta[] = [];
    for (const event of events) {
      if (failure) break;
      const data = jsonOf(event.data);
      if (!isObj(data)) {
        failure = badStream(`an event's data is not JSON (${JSON.stringify(event.data.slice(0, 80))})`);
        break;
      }
      handle(str(data.type) ?? event.event ?? '', data, deltas);
    }
    return deltas;
  };

  return {
    push: (chunk) => read(sse.push(chunk)),
    end: () => {
      read(sse.end());
      if (failure) return { ok: false, error: failure };
      if (sse.overflow) return { ok: false, error: badStream('one event was larger than Loupe reads') };
      if (!started) {
        const detail = errorDetail(jsonOf(sse.stray.join('\n')));
        if (detail !== undefined) return { ok: false, error: { code: 'SERVER_ERROR', message: `${API} answered with an error instead of a stream (${detail}). Check the settings and send again.` } };
        return { ok: false, error: badStream('it did not start with message_start') };
      }
      if (!stopped) return { ok: false, error: badStream('it ended before message_stop') };
      const message = { role: 'assistant' as const, parts: partsOf(blocks) };
      return { ok: true, value: { message, stopReason: callsOf(message).length > 0 && raw === undefined ? 'tool_use' : stopReason(raw), stopReasonRaw: raw, usage, model } };
    },
  };
}

function parseModels(json: unknown): Outcome<ModelInfo[]> {
  if (!isObj(json) || !Array.isArray(json.data)) return { ok: false, error: badResponse('the model list has no "data" list') };
  const models = json.data.flatMap((m): ModelInfo[] => {
    if (!isObj(m) || typeof m.id !== 'string') return [];
    return [typeof m.display_name === 'string' ? { id: m.id, name: m.display_name } : { id: m.id }];
  });
  return { ok: true, value: models };
}

export const anthropicAdapter: ProviderAdapter = {
  kind: 'anthropic',
  url: (baseUrl, what) => joinUrl(baseUrl || ANTHROPIC_BASE_URL, what === 'chat' ? 'messages' : 'models'),
  headers: (apiKey) => ({ 'content-type': 'application/json', 'anthropic-version': ANTHROPIC_VERSION, ...(apiKey ? { 'x-api-key': apiKey } : {}) }),
  body,
  parseReply,
  stream,
  httpError: (status, bodyText) => httpProblem(API, status, errorDetail(jsonOf(bodyText)) ?? bodyText.slice(0, 200)),
  parseModels,
};
