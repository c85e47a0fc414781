/**
 * The MCP semantic conventions' attributes of one request (open-telemetry/semantic-conventions-genai,
 * docs/gen-ai/mcp.md, status Development): the span's name `{mcp.method.name} {target}` (the tool
 * or prompt name; never the resource URI, which would make names of high cardinality), and what a
 * request and its answer say about it.
 */
import type { Attributes } from './span.ts';

export const MODERN_VERSION = '2026-07-28';

/** What the session knows that every span of it says. */
export interface SessionFacts {
  transport: 'stdio' | 'http';
  protocolVersion?: string;
  /** `Mcp-Session-Id` of a Streamable HTTP session; never said on a 2026-07-28 session, which has none. */
  sessionId?: string;
}

const asObject = (value: unknown): Record<string, unknown> | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

/** The low-cardinality target of a span name: the tool's or the prompt's name. */
export function spanTarget(method: string, params: unknown): string | undefined {
  const p = asObject(params);
  if ((method === 'tools/call' || method === 'prompts/get') && typeof p?.name === 'string') return p.name;
  return undefined;
}

export function spanName(method: string, params: unknown): string {
  const target = spanTarget(method, params);
  return target !== undefined ? `${method} ${target}` : method;
}

/** Attributes of a request (or notification) when it is sent. `content`: the arguments too (`--otlp-content`). */
export function requestAttributes(method: string, id: string | number | undefined, params: unknown, facts: SessionFacts, content: boolean): Attributes {
  const attributes: Attributes = { 'mcp.method.name': method, 'network.transport': facts.transport === 'stdio' ? 'pipe' : 'tcp' };
  if (id !== undefined) attributes['jsonrpc.request.id'] = String(id);
  const p = asObject(params);
  if (method === 'tools/call' && typeof p?.name === 'string') {
    attributes['gen_ai.tool.name'] = p.name;
    attributes['gen_ai.operation.name'] = 'execute_tool';
    if (content && p.arguments !== undefined) attributes['gen_ai.tool.call.arguments'] = JSON.stringify(p.arguments);
  }
  if (method === 'prompts/get' && typeof p?.name === 'string') attributes['gen_ai.prompt.name'] = p.name;
  if (typeof p?.uri === 'string' && method.startsWith('resources/')) attributes['mcp.resource.uri'] = p.uri;
  const version = method === 'initialize' && typeof p?.protocolVersion === 'string' ? p.protocolVersion : facts.protocolVersion;
  if (version !== undefined) attributes['mcp.protocol.version'] = version;
  if (facts.sessionId !== undefined && version !== MODERN_VERSION) attributes['mcp.session.id'] = facts.sessionId;
  return attributes;
}

export interface AnswerFacts {
  attributes: Attributes;
  error?: string;
}

/** What an answer adds: `error.type` (the JSON-RPC code, or `tool_error` for a result with isError), the result with `content`. */
export function answerAttributes(method: string, message: Record<string, unknown>, content: boolean): AnswerFacts {
  const attributes: Attributes = {};
  const error = asObject(message.error);
  if (error) {
    const code = typeof error.code === 'number' ? String(error.code) : '_OTHER';
    attributes['error.type'] = code;
    attributes['rpc.response.status_code'] = code;
    return { attributes, error: typeof error.message === 'string' ? error.message : `JSON-RPC error ${code}` };
  }
  const result = asObject(message.result);
  if (method === 'initialize' && typeof result?.protocolVersion === 'string') attributes['mcp.protocol.version'] = result.protocolVersion;
  if (method === 'tools/call' && content && result) attributes['gen_ai.tool.call.result'] = JSON.stringify(result);
  if (method === 'tools/call' && result?.isError === true) {
    attributes['error.type'] = 'tool_error';
    return { attributes, error: 'The tool answered with isError' };
  }
  return { attributes };
}

/** `clientInfo` of an initialize request, as resource attributes of a tapped or gateway session's host. */
export function hostResource(params: unknown): Attributes | undefined {
  const info = asObject(asObject(params)?.clientInfo);
  if (!info || typeof info.name !== 'string') return undefined;
  const resource: Attributes = { 'mcp.client.name': info.name };
  if (typeof info.version === 'string') resource['mcp.client.version'] = info.version;
  return resource;
}
