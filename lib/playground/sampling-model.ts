/**
 * A server's `sampling/createMessage` answered by a model (issue 15, item 5): the request (as
 * lib/client/sampling.ts reads it) → one Playground model call (the conversation model of
 * playground-types.ts, with the model chosen from the request's hints), and the model's reply →
 * a draft for the reply editor, which the person still sends, edits or rejects.
 *
 * Pure, so that every mapping rule (hints, what the providers cannot take, stop reasons) is tested
 * without a network. What cannot be passed on is said in `notes`, never dropped silently.
 * https://modelcontextprotocol.io/specification/2025-11-25/client/sampling
 */
import { callsOf, textOf, type AssistantPart, type Message, type ModelReply, type ModelRequest, type PlaygroundTool, type ProviderConfig, type ToolResult } from './types.ts';
import type { SamplingBlock, SamplingDraft, SamplingView } from '../client/sampling.ts';
import type { ResultBlock } from '../content/tool-result.ts';

/** The Playground's settings as they stand when the person presses Ask model. */
export interface SamplingModelSettings {
  /** The first provider's settings as a call carries them (key by reference only). */
  config: ProviderConfig;
  /** The models the endpoint listed when the person asked (`List models`); may be empty. */
  known: readonly string[];
}

export interface ModelChoice {
  model: string;
  /** One sentence: why this model. */
  why: string;
}

export interface SamplingCall {
  config: ProviderConfig;
  request: ModelRequest;
  choice: ModelChoice;
  /** What of the request the providers are not given, one sentence each. */
  notes: string[];
}

export type SamplingCallPlan = { ok: true; call: SamplingCall } | { ok: false; error: string };

export const NOT_SET_UP = 'No model is set up in the Playground: choose a provider and type a model’s name in the Playground tab, then ask again.';

/**
 * The spec's hints are substrings to match "flexibly", tried in order; the first that matches a
 * model Loupe knows of (the endpoint's list, or the set model) wins, an exact name before a part.
 */
export function chooseModel(hints: readonly string[], settings: SamplingModelSettings): ModelChoice | undefined {
  const set = settings.config.model.trim();
  const known = [...new Set([...settings.known, ...(set ? [set] : [])])];
  for (const hint of hints) {
    const wanted = hint.trim().toLowerCase();
    if (wanted === '') continue;
    const found = known.find((m) => m.toLowerCase() === wanted) ?? known.find((m) => m.toLowerCase().includes(wanted));
    if (found !== undefined) return { model: found, why: `The server’s hint “${hint}” matches ${found === set ? 'the model set in the Playground' : 'a model the endpoint offers'}, ${found}.` };
  }
  if (set === '') return undefined;
  if (hints.length === 0) return { model: set, why: `The request names no model, so the Playground’s model ${set} answers.` };
  const listed = settings.known.length > 0 ? 'the models the endpoint offers' : 'the Playground’s model (press List models there to match against the endpoint’s list)';
  return { model: set, why: `No hint (${hints.map((h) => `“${h}”`).join(', ')}) matches ${listed}, so ${set} answers.` };
}

/** A content block the conversation model has no place for, as a line of text the model can read. */
function blockText(block: ResultBlock): string {
  switch (block.kind) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.kind}: ${block.mimeType}]`;
    case 'resource_link':
      return `[resource link: ${block.uri}]`;
    case 'resource':
      return block.text ?? `[resource ${block.uri}: ${block.mimeType ?? 'binary'}]`;
    default:
      return `[${block.type ?? 'unknown'} content]`;
  }
}

function toolResultOf(block: Extract<SamplingBlock, { kind: 'tool_result' }>): ToolResult {
  const content = block.blocks.map((b) => ({ type: 'text', text: blockText(b) }));
  return { callId: block.toolUseId, content, ...(block.structuredContent !== undefined ? { structuredContent: block.structuredContent } : {}), isError: block.isError };
}

/** The request's messages in the conversation model; media that can only travel as text is named in `notes`. */
function messagesOf(view: SamplingView, notes: string[]): Message[] {
  const out: Message[] = [];
  view.messages.forEach((message, index) => {
    const media = message.blocks.flatMap((b) => (b.kind === 'content' && (b.block.kind === 'image' || b.block.kind === 'audio') ? [b.block.kind] : []));
    if (media.length > 0) notes.push(`Message ${index + 1}’s ${[...new Set(media)].join(' and ')} went to the model as a note in the text: the Playground sends messages as text only.`);
    const results = message.blocks.flatMap((b) => (b.kind === 'tool_result' ? [toolResultOf(b)] : []));
    if (results.length > 0) out.push({ role: 'tool', results });
    const texts = message.blocks.flatMap((b) => (b.kind === 'content' ? [blockText(b.block)] : []));
    if (message.role === 'assistant') {
      const parts: AssistantPart[] = texts.length > 0 ? [{ type: 'text', text: texts.join('\n') }] : [];
      for (const b of message.blocks) {
        if (b.kind !== 'tool_use') continue;
        const args = b.input !== null && typeof b.input === 'object' && !Array.isArray(b.input) ? (b.input as Record<string, unknown>) : {};
        parts.push({ type: 'tool_call', call: { id: b.id, name: b.name, arguments: args, argumentsText: JSON.stringify(args) } });
      }
      if (parts.length > 0) out.push({ role: 'assistant', parts });
    } else if (texts.length > 0) out.push({ role: 'user', text: texts.join('\n') });
  });
  return out;
}

/** The tools the server offered for the model to use, unless it said `toolChoice: none`. */
function toolsOf(view: SamplingView, notes: string[]): PlaygroundTool[] {
  if (view.tools.length === 0) return [];
  if (view.toolChoice === 'none') {
    notes.push('The server offered tools with toolChoice “none”, so the model is not shown them.');
    return [];
  }
  if (view.toolChoice === 'required') notes.push('The server asked for a tool to be used (toolChoice “required”); the providers are not told so, and the model may answer in text.');
  return view.tools.map((t) => ({ name: t.name, server: '', tool: t.name, description: t.description ?? t.title, inputSchema: t.inputSchema ?? { type: 'object' }, readOnly: false }));
}

/** What the request asks for that the Playground's provider calls do not carry. */
function unsupported(view: SamplingView): string[] {
  const notes: string[] = [];
  if (view.temperature !== undefined) notes.push(`temperature ${view.temperature} is not passed on: the Playground calls providers with their default.`);
  if (view.stopSequences.length > 0) notes.push(`The stop sequences (${view.stopSequences.map((s) => JSON.stringify(s)).join(', ')}) are not passed on: the Playground’s provider calls do not carry them.`);
  if (view.includeContext !== undefined && view.includeContext !== 'none') notes.push(`includeContext “${view.includeContext}” adds nothing: Loupe keeps no context of its own to add.`);
  const p = view.modelPreferences;
  if (p && (p.costPriority !== undefined || p.speedPriority !== undefined || p.intelligencePriority !== undefined)) notes.push('The cost, speed and intelligence priorities are not used to choose: only the hints are.');
  return notes;
}

/** The model call for a sampling request with these settings, or why there is none. */
export function planSamplingCall(view: SamplingView, settings: SamplingModelSettings): SamplingCallPlan {
  const choice = chooseModel(view.modelPreferences?.hints ?? [], settings);
  if (!choice) return { ok: false, error: NOT_SET_UP };
  const notes = unsupported(view);
  const messages = messagesOf(view, notes);
  if (messages.length === 0) return { ok: false, error: 'The request holds no message the model could read, so it was not asked: answer by hand or reject it.' };
  const tools = toolsOf(view, notes);
  const config: ProviderConfig = { ...settings.config, model: choice.model, ...(view.maxTokens !== undefined && view.maxTokens > 0 ? { maxTokens: Math.floor(view.maxTokens) } : {}) };
  return { ok: true, call: { config, request: { ...(view.systemPrompt ? { system: view.systemPrompt } : {}), messages, tools }, choice, notes } };
}

/** The sampling spec's stop reason for the provider's (its own word kept when it has no match). */
export function samplingStopReason(reply: Pick<ModelReply, 'stopReason' | 'stopReasonRaw'>): string {
  if (reply.stopReasonRaw === 'stop_sequence') return 'stopSequence';
  if (reply.stopReason === 'end') return 'endTurn';
  if (reply.stopReason === 'tool_use') return 'toolUse';
  if (reply.stopReason === 'max_tokens') return 'maxTokens';
  return reply.stopReasonRaw ?? 'endTurn';
}

export interface SuggestedReply {
  draft: Partial<SamplingDraft>;
  /** What of the reply the editor does not hold, one sentence each. */
  notes: string[];
}

/** The model's reply as the reply editor's draft: the model that answered, its text or its (first) tool call. */
export function replyDraft(reply: ModelReply, call: Pick<SamplingCall, 'config'>, view: SamplingView): SuggestedReply {
  const model = reply.model?.trim() || call.config.model;
  const stopReason = samplingStopReason(reply);
  const calls = callsOf(reply.message);
  const notes: string[] = [];
  const first = calls[0];
  if (first && view.tools.some((t) => t.name === first.name)) {
    if (calls.length > 1) notes.push(`The model asked for ${calls.length} tools at once; the reply holds the first, ${first.name}.`);
    return { draft: { role: 'assistant', kind: 'tool_use', model, stopReason, toolName: first.name, toolUseId: first.id, toolInput: JSON.stringify(first.arguments, null, 2), text: textOf(reply.message) }, notes };
  }
  if (first) notes.push(`The model asked for a tool the server did not offer (${first.name}); only its text is kept.`);
  const text = textOf(reply.message);
  if (text === '') notes.push('The model answered with no text.');
  return { draft: { role: 'assistant', kind: 'text', model, stopReason: stopReason === 'toolUse' ? 'endTurn' : stopReason, text }, notes };
}
