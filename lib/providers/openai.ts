/**
 * OpenAI-compatible Chat Completions (POST {base}/chat/completions, GET {base}/models) ↔ the
 * Playground's conversation model (playground-types.ts), as pure functions. "Compatible" is meant:
 * OpenAI, DeepSeek, Ollama, LM Studio, vLLM, llama.cpp's server and OpenRouter speak this shape,
 * each with small differences, which the readers here accept rather than refuse.
 *
 * Wire shapes: tools as `{type: "function", function: {name, description, parameters}}`; the
 * assistant's calls as `tool_calls` with `arguments` as a JSON string; each result as its own
 * `role: "tool"` message with `tool_call_id`; a stream as `data:` chunks whose `choices[0].delta`
 * carries `content` and `tool_calls[]` fragments keyed by `index`, ending with `data: [DONE]`,
 * with usage in a last chunk when `stream_options.include_usage` is asked for.
 * https://platform.openai.com/docs/api-reference/chat
 */
import { cleanSchemaFor } from '../doctor/providers.ts';
import {
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
  type Usage,
} from '../playground/types.ts';
import { createSseReader } from './sse-lines.ts';
import { OPENAI_BASE_URL } from './base-urls.ts';
import { isObj, num, str, type Obj } from '../json/json-values.ts';


export { OPENAI_BASE_URL };
const API = 'The provider';

/** Arguments to send back: what the model wrote when it was an object, `{}` when it was not (APIs refuse broken JSON there). */
const sentArguments = (call: { argumentsText: string; argumentsError?: string; arguments: Obj }): string =>
  call.argumentsError === undefined && call.argumentsText.trim() !== '' ? call.argumentsText : JSON.stringify(call.arguments);

/** The conversation as Chat Completions `messages`, the system prompt first. */
export function openaiMessages(system: string | undefined, messages: readonly Message[]): Obj[] {
  const out: Obj[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    if (message.role === 'user') out.push({ role: 'user', content: message.text });
    else if (message.role === 'tool') {
      for (const r of message.results) out.push({ role: 'tool', tool_call_id: r.callId, content: `${r.isError ? 'Error: ' : ''}${resultText(r)}` });
    } else {
      const text = message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      const calls = message.parts.flatMap((p) => (p.type === 'tool_call' ? [p.call] : []));
      out.push({
        role: 'assistant',
        content: text === '' && calls.length > 0 ? null : text,
        ...(calls.length > 0 ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: sentArguments(c) } })) } : {}),
      });
    }
  }
  return out;
}

function body(config: ProviderConfig, request: ModelRequest, stream: boolean): Record<string, unknown> {
  const tools = request.tools.map((t) => ({
    type: 'function',
    function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: cleanSchemaFor('openai', t.inputSchema).schema },
  }));
  return {
    model: config.model,
    messages: openaiMessages(request.system, request.messages),
    ...(tools.length > 0 ? { tools } : {}),
    ...(config.maxTokens ? { max_tokens: config.maxTokens } : {}),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

function stopReason(raw: string | undefined): StopReason {
  if (raw === 'stop') return 'end';
  if (raw === 'tool_calls' || raw === 'function_call') return 'tool_use';
  if (raw === 'length') return 'max_tokens';
  return 'other';
}

function usageOf(raw: unknown): Usage | undefined {
  if (!isObj(raw)) return undefined;
  // `cost`: what OpenRouter reports of each call (https://openrouter.ai/docs/use-cases/usage-accounting); others report none.
  const cost = num(raw.cost);
  return { inputTokens: num(raw.prompt_tokens) ?? 0, outputTokens: num(raw.completion_tokens) ?? 0, ...(cost !== undefined ? { cost } : {}) };
}

/** The detail of an error body: OpenAI's `{error: {message, type, code}}`, Ollama's `{error: "…"}`, vLLM's `{object: "error", message}`. */
function errorDetail(json: unknown): string | undefined {
  if (!isObj(json)) return undefined;
  if (typeof json.error === 'string') return json.error;
  if (isObj(json.error)) return str(json.error.message) ?? str(json.error.code) ?? str(json.error.type);
  if (json.object === 'error') return str(json.message);
  return undefined;
}

const badResponse = (why: string): ProviderError => ({ code: 'BAD_RESPONSE', message: `${API} sent a reply Loupe cannot read: ${why}.` });
const badStream = (why: string): ProviderError => ({ code: 'BAD_STREAM', message: `${API}'s stream broke off or could not be read: ${why}. Send the message again.` });
const answeredError = (detail: string): ProviderError => ({ code: 'SERVER_ERROR', message: `${API} answered with an error (${detail}). Check the settings and send again.` });

function parseReply(json: unknown): Outcome<ModelReply> {
  const detail = errorDetail(json);
  if (detail !== undefined) return { ok: false, error: answeredError(detail) };
  if (!isObj(json) || !Array.isArray(json.choices)) return { ok: false, error: badResponse('it has no "choices" list') };
  const choice = json.choices[0];
  if (!isObj(choice) || !isObj(choice.message)) return { ok: false, error: badResponse('it has no message in its first choice') };
  const parts: AssistantPart[] = [];
  const content = str(choice.message.content);
  if (content) parts.push({ type: 'text', text: content });
  const calls = Array.isArray(choice.message.tool_calls) ? choice.message.tool_calls : [];
  for (const [i, call] of calls.entries()) {
    if (!isObj(call) || !isObj(call.function) || typeof call.function.name !== 'string') return { ok: false, error: badResponse(`tool call ${i + 1} has no function name`) };
    // Some compatible servers send the arguments as an object instead of a JSON string.
    const raw = call.function.arguments;
    const argumentsText = typeof raw === 'string' ? raw : raw === undefined ? '' : JSON.stringify(raw);
    parts.push({ type: 'tool_call', call: { id: str(call.id) ?? `call_${i}`, name: call.function.name, argumentsText, ...readArguments(argumentsText) } });
  }
  const raw = str(choice.finish_reason);
  return { ok: true, value: { message: { role: 'assistant', parts }, stopReason: stopReason(raw), stopReasonRaw: raw, usage: usageOf(json.usage), model: str(json.model) } };
}

interface PendingCall {
  id: string;
  name: string;
  args: string;
  /** The `index` the server gave it. */
  wireIndex: number;
}

/** The call a fragment belongs to: by `index`, except that a new `id` at a used index (some servers reuse index 0) starts a new call. */
function callFor(calls: PendingCall[], fragment: Obj, deltas: StreamDelta[]): PendingCall {
  const id = str(fragment.id);
  const wireIndex = num(fragment.index) ?? (id === undefined ? (calls.at(-1)?.wireIndex ?? 0) : calls.length);
  let call = calls.findLast((c) => c.wireIndex === wireIndex);
  if (call === undefined || (id !== undefined && id !== '' && call.id !== '' && id !== call.id)) {
    call = { id: id ?? '', name: '', args: '', wireIndex };
    calls.push(call);
  } else if (id !== undefined && call.id === '') call.id = id;
  const fn = isObj(fragment.function) ? fragment.function : {};
  const name = str(fn.name);
  if (name !== undefined && call.name === '') {
    call.name = name;
    deltas.push({ type: 'tool_call_start', index: calls.indexOf(call), id: call.id, name });
  }
  return call;
}

/** A chunk's `tool_calls[]` fragments added to the calls they belong to, each start and each piece of arguments said in `deltas`. */
function addCallFragments(calls: PendingCall[], fragments: unknown[], deltas: StreamDelta[]): void {
  for (const fragment of fragments) {
    if (!isObj(fragment)) continue;
    const call = callFor(calls, fragment, deltas);
    const args = isObj(fragment.function) ? fragment.function.arguments : undefined;
    const piece = typeof args === 'string' ? args : args === undefined || args === null ? '' : JSON.stringify(args);
    if (piece === '') continue;
    call.args += piece;
    deltas.push({ type: 'tool_call_arguments', index: calls.indexOf(call), fragment: piece });
  }
}

/** One streamed reply, read as it arrives. */
function stream(): ReplyStream {
  const sse = createSseReader();
  let text = '';
  const calls: PendingCall[] = [];
  let chunks = 0;
  let done = false;
  let raw: string | undefined;
  let usage: Usage | undefined;
  let model: string | undefined;
  let failure: ProviderError | undefined;

  const handle = (data: Obj, deltas: StreamDelta[]): void => {
    chunks++;
    model = str(data.model) ?? model;
    usage = usageOf(data.usage) ?? usage;
    const choice = Array.isArray(data.choices) ? data.choices.find((c) => isObj(c) && (c.index ?? 0) === 0) : undefined;
    if (!isObj(choice)) return;
    raw = str(choice.finish_reason) ?? raw;
    const delta = isObj(choice.delta) ? choice.delta : {};
    const piece = str(delta.content);
    if (piece) {
      text += piece;
      deltas.push({ type: 'text', text: piece });
    }
    if (!Array.isArray(delta.tool_calls)) return;
    addCallFragments(calls, delta.tool_calls, deltas);
  };

  const read = (events: { data: string }[]): StreamDelta[] => {
    const deltas: StreamDelta[] = [];
    for (const event of events) {
      if (failure || done) break;
      if (event.data.trim() === '[DONE]') {
        done = true;
        break;
      }
      const data = jsonOf(event.data);
      const detail = errorDetail(data);
      if (detail !== undefined) failure = { code: 'SERVER_ERROR', message: `${API} stopped the reply with an error (${detail}). Try again in a moment.` };
      else if (!isObj(data)) failure = badStream(`a chunk is not JSON (${JSON.stringify(event.data.slice(0, 80))})`);
      else handle(data, deltas);
    }
    return deltas;
  };

  return {
    push: (chunk) => read(sse.push(chunk)),
    end: () => {
      read(sse.end());
      if (failure) return { ok: false, error: failure };
      if (sse.overflow) return { ok: false, error: badStream('one chunk was larger than Loupe reads') };
      if (chunks === 0) {
        const detail = errorDetail(jsonOf(sse.stray.join('\n')));
        return { ok: false, error: detail !== undefined ? answeredError(detail) : badStream('it held no chunks') };
      }
      // Some compatible servers leave out [DONE]; a finish_reason says the reply is whole.
      if (!done && raw === undefined) return { ok: false, error: badStream('it ended before [DONE]') };
      const missing = calls.find((c) => c.name === '');
      if (missing) return { ok: false, error: badStream(`tool call ${calls.indexOf(missing) + 1} never got a name`) };
      const parts: AssistantPart[] = text === '' ? [] : [{ type: 'text', text }];
      for (const [i, c] of calls.entries()) parts.push({ type: 'tool_call', call: { id: c.id || `call_${i}`, name: c.name, argumentsText: c.args, ...readArguments(c.args) } });
      const reason = calls.length > 0 && raw === undefined ? 'tool_use' : stopReason(raw);
      return { ok: true, value: { message: { role: 'assistant', parts }, stopReason: reason, stopReasonRaw: raw, usage, model } };
    },
  };
}

function parseModels(json: unknown): Outcome<ModelInfo[]> {
  const detail = errorDetail(json);
  if (detail !== undefined) return { ok: false, error: answeredError(detail) };
  if (!isObj(json) || !Array.isArray(json.data)) return { ok: false, error: badResponse('the model list has no "data" list') };
  return { ok: true, value: json.data.flatMap((m): ModelInfo[] => (isObj(m) && typeof m.id === 'string' ? [{ id: m.id }] : [])) };
}

export const openaiAdapter: ProviderAdapter = {
  kind: 'openai-compatible',
  url: (baseUrl, what) => joinUrl(baseUrl || OPENAI_BASE_URL, what === 'chat' ? 'chat/completions' : 'models'),
  // Local servers (Ollama, LM Studio, llama.cpp) take no key: then no Authorization header at all.
  headers: (apiKey) => ({ 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) }),
  body,
  parseReply,
  stream,
  httpError: (status, bodyText) => httpProblem(API, status, errorDetail(jsonOf(bodyText)) ?? bodyText.slice(0, 200)),
  parseModels,
};
