/**
 * A `prompts/get` result → a conversation: each message's role and its content block, read with
 * the same untrusting rules as tool results.
 * https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#getting-a-prompt
 */
import { normaliseBlock, type ResultBlock } from './tool-result.ts';

export interface PromptMessage {
  /** `user` or `assistant`; anything else is kept and flagged. */
  role: string;
  block: ResultBlock;
  problem?: string;
}

export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
  problems: string[];
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function readMessage(message: unknown, index: number): PromptMessage {
  if (!isObj(message)) return { role: '?', block: normaliseBlock(undefined), problem: `message #${index + 1} is not an object` };
  const role = typeof message.role === 'string' ? message.role : '?';
  const problem = role === 'user' || role === 'assistant' ? undefined : `message #${index + 1} has role ${JSON.stringify(message.role) ?? 'missing'}`;
  return { role, block: normaliseBlock(message.content), ...(problem ? { problem } : {}) };
}

export function normalisePromptResult(result: unknown): PromptResult {
  if (!isObj(result)) return { messages: [], problems: ['result is not an object'] };
  const problems: string[] = [];
  const messages = Array.isArray(result.messages) ? result.messages.map(readMessage) : [];
  if (!Array.isArray(result.messages)) problems.push('result has no "messages" array');
  return { description: typeof result.description === 'string' ? result.description : undefined, messages, problems };
}

/** Prompt arguments as sent: every value a string (spec: `arguments: {[key]: string}`), empty ones left out. */
export function promptArguments(values: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (value !== '') out[name] = value;
  return out;
}
