/**
 * `sampling/createMessage`: the server's request → a conversation the UI can show, and the user's
 * hand-written reply → a `CreateMessageResult`. Reply presets live here too (as data).
 * https://modelcontextprotocol.io/specification/2025-11-25/client/sampling
 */
import { base64Bytes, normaliseBlock, type ResultBlock } from '../content/tool-result.ts';

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export type SamplingBlock =
  | { kind: 'content'; block: ResultBlock }
  | { kind: 'tool_use'; id: string; name: string; input: unknown }
  | { kind: 'tool_result'; toolUseId: string; blocks: ResultBlock[]; isError: boolean; structuredContent?: unknown };

export interface SamplingMessageView {
  role: string;
  blocks: SamplingBlock[];
}

export interface OfferedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
}

export interface ModelPreferencesView {
  hints: string[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

export interface SamplingView {
  messages: SamplingMessageView[];
  systemPrompt?: string;
  includeContext?: string;
  maxTokens?: number;
  temperature?: number;
  stopSequences: string[];
  metadata?: unknown;
  modelPreferences?: ModelPreferencesView;
  tools: OfferedTool[];
  /** `toolChoice.mode` (`auto` when tools are offered without one). */
  toolChoice?: string;
  /** The `task` member of a task-augmented request. */
  task?: Obj;
  problems: string[];
}

function readBlock(raw: unknown): SamplingBlock {
  if (isObject(raw) && raw.type === 'tool_use') {
    return { kind: 'tool_use', id: str(raw.id) ?? '', name: str(raw.name) ?? '', input: raw.input };
  }
  if (isObject(raw) && raw.type === 'tool_result') {
    const content = Array.isArray(raw.content) ? raw.content.map(normaliseBlock) : [];
    return { kind: 'tool_result', toolUseId: str(raw.toolUseId) ?? '', blocks: content, isError: raw.isError === true, structuredContent: raw.structuredContent };
  }
  return { kind: 'content', block: normaliseBlock(raw) };
}

function readMessages(raw: unknown, problems: string[]): SamplingMessageView[] {
  if (!Array.isArray(raw)) {
    problems.push('"messages" is missing or not an array');
    return [];
  }
  return raw.map((message, index) => {
    if (!isObject(message)) {
      problems.push(`message #${index + 1} is not an object`);
      return { role: '?', blocks: [] };
    }
    const role = str(message.role);
    if (role !== 'user' && role !== 'assistant') problems.push(`message #${index + 1} has role ${JSON.stringify(message.role) ?? 'missing'}`);
    const content = Array.isArray(message.content) ? message.content : [message.content];
    return { role: role ?? '?', blocks: content.map(readBlock) };
  });
}

function readTools(raw: unknown, problems: string[]): OfferedTool[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push('"tools" is not an array');
    return [];
  }
  return raw.flatMap((tool, index) => {
    if (!isObject(tool) || typeof tool.name !== 'string') {
      problems.push(`tool #${index + 1} has no string "name"`);
      return [];
    }
    return [{ name: tool.name, title: str(tool.title), description: str(tool.description), inputSchema: tool.inputSchema }];
  });
}

function readPreferences(raw: unknown): ModelPreferencesView | undefined {
  if (!isObject(raw)) return undefined;
  const hints = Array.isArray(raw.hints) ? raw.hints.flatMap((h) => (isObject(h) && typeof h.name === 'string' ? [h.name] : [])) : [];
  return { hints, costPriority: num(raw.costPriority), speedPriority: num(raw.speedPriority), intelligencePriority: num(raw.intelligencePriority) };
}

/** The request's params → the view of it; what is malformed is named in `problems`. */
export function parseSampling(params: unknown): SamplingView {
  const problems: string[] = [];
  if (!isObject(params)) return { messages: [], stopSequences: [], tools: [], problems: ['params are missing or not an object'] };
  const maxTokens = num(params.maxTokens);
  if (maxTokens === undefined) problems.push('"maxTokens" is missing or not a number');
  const tools = readTools(params.tools, problems);
  const toolChoice = isObject(params.toolChoice) ? (str(params.toolChoice.mode) ?? 'auto') : tools.length > 0 ? 'auto' : undefined;
  return {
    messages: readMessages(params.messages, problems),
    systemPrompt: str(params.systemPrompt),
    includeContext: str(params.includeContext),
    maxTokens,
    temperature: num(params.temperature),
    stopSequences: Array.isArray(params.stopSequences) ? params.stopSequences.filter((s): s is string => typeof s === 'string') : [],
    metadata: params.metadata,
    modelPreferences: readPreferences(params.modelPreferences),
    tools,
    toolChoice,
    task: isObject(params.task) ? params.task : undefined,
    problems,
  };
}

// ---------------------------------------------------------------------------------------------
// The reply

export type ReplyKind = 'text' | 'image' | 'tool_use';

export interface SamplingDraft {
  role: 'assistant' | 'user';
  kind: ReplyKind;
  text: string;
  /** Base64 image data (a `data:` URL prefix is stripped). */
  imageData: string;
  imageMimeType: string;
  model: string;
  /** Free text; the spec names endTurn, stopSequence, maxTokens, toolUse. */
  stopReason: string;
  toolName: string;
  /** The tool's arguments as JSON text. */
  toolInput: string;
  toolUseId: string;
}

export const STOP_REASONS = ['endTurn', 'stopSequence', 'maxTokens', 'toolUse'] as const;

export const DEFAULT_DRAFT: SamplingDraft = {
  role: 'assistant',
  kind: 'text',
  text: '',
  imageData: '',
  imageMimeType: 'image/png',
  model: 'loupe-by-hand',
  stopReason: 'endTurn',
  toolName: '',
  toolInput: '{}',
  toolUseId: '',
};

export type BuiltReply = { ok: true; result: Record<string, unknown> } | { ok: false; error: string };

function imageContent(draft: SamplingDraft): Obj | string {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(draft.imageData.trim());
  const data = (match ? match[2] : draft.imageData).replace(/\s+/g, '');
  const mimeType = match ? match[1] : draft.imageMimeType.trim();
  if (data === '') return 'Choose an image or paste its base64 data';
  if (base64Bytes(data) === undefined) return 'The image data is not base64';
  if (mimeType === '') return 'Give the image a MIME type';
  return { type: 'image', data, mimeType };
}

function toolUseContent(draft: SamplingDraft, view: SamplingView): Obj | string {
  if (view.tools.length === 0) return 'The server offered no tools, so a tool-use reply is not allowed';
  if (!view.tools.some((t) => t.name === draft.toolName)) return 'Choose one of the offered tools';
  let input: unknown;
  try {
    input = JSON.parse(draft.toolInput);
  } catch (e) {
    return `Tool input is not valid JSON: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (!isObject(input)) return 'Tool input must be a JSON object';
  return { type: 'tool_use', id: draft.toolUseId.trim() || 'toolu_loupe', name: draft.toolName, input };
}

/** The `CreateMessageResult` the draft describes, or what is wrong with it. */
export function buildSamplingResult(draft: SamplingDraft, view: SamplingView): BuiltReply {
  if (draft.model.trim() === '') return { ok: false, error: 'Name the model that "answered" (any text)' };
  let content: Obj | string;
  if (draft.kind === 'image') content = imageContent(draft);
  else if (draft.kind === 'tool_use') content = toolUseContent(draft, view);
  else content = { type: 'text', text: draft.text };
  if (typeof content === 'string') return { ok: false, error: content };
  const stopReason = draft.stopReason.trim();
  return { ok: true, result: { role: draft.role, content, model: draft.model.trim(), ...(stopReason ? { stopReason } : {}) } };
}

/** JSON-RPC error a client returns when the user rejects a sampling request (spec: "User rejected sampling request"). */
export const USER_REJECTED = { code: -1, message: 'User rejected sampling request' } as const;

// ---------------------------------------------------------------------------------------------
// Presets: a few saved replies

export interface SamplingPreset {
  name: string;
  draft: Pick<SamplingDraft, 'role' | 'kind' | 'text' | 'model' | 'stopReason'>;
}

export const PRESET_CAP = 12;

/** Stored presets (JSON text, possibly absent or damaged) → the valid ones. */
export function parsePresets(text: string | null | undefined): SamplingPreset[] {
  if (!text) return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  return data.flatMap((item): SamplingPreset[] => {
    if (!isObject(item) || typeof item.name !== 'string' || !isObject(item.draft)) return [];
    const d = item.draft;
    const role = d.role === 'user' ? 'user' : 'assistant';
    const kind: ReplyKind = d.kind === 'tool_use' ? 'tool_use' : 'text';
    return [{ name: item.name, draft: { role, kind, text: str(d.text) ?? '', model: str(d.model) ?? DEFAULT_DRAFT.model, stopReason: str(d.stopReason) ?? '' } }];
  }).slice(0, PRESET_CAP);
}

/** Add or replace (by name) a preset, newest first, at most PRESET_CAP. */
export function savePreset(presets: readonly SamplingPreset[], name: string, draft: SamplingDraft): SamplingPreset[] {
  const preset: SamplingPreset = { name: name.trim(), draft: { role: draft.role, kind: draft.kind === 'image' ? 'text' : draft.kind, text: draft.text, model: draft.model, stopReason: draft.stopReason } };
  return [preset, ...presets.filter((p) => p.name !== preset.name)].slice(0, PRESET_CAP);
}

export function applyPreset(draft: SamplingDraft, preset: SamplingPreset): SamplingDraft {
  return { ...draft, ...preset.draft };
}
