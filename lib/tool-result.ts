/**
 * A `tools/call` result as the server sent it → a typed list of blocks the UI can render safely.
 *
 * The server is untrusted: every field is checked, a bad block becomes an `unknown` block with a
 * problem while the others still render, and only raster images and common audio types get a
 * `data:` URL (an SVG can carry script, so it is never handed to <img>).
 * Spec: https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool-result
 */

export const RASTER_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp'] as const;
export const AUDIO_TYPES = [
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/mpeg',
  'audio/mp3',
  'audio/ogg',
  'audio/webm',
  'audio/aac',
  'audio/flac',
  'audio/mp4',
] as const;

export type ResultBlock =
  | { kind: 'text'; text: string }
  | { kind: 'image'; mimeType: string; bytes: number; src?: string; problem?: string }
  | { kind: 'audio'; mimeType: string; bytes: number; src?: string; problem?: string }
  | { kind: 'resource_link'; uri: string; name?: string; title?: string; mimeType?: string; description?: string }
  | { kind: 'resource'; uri: string; mimeType?: string; text?: string; blobBytes?: number; problem?: string }
  | { kind: 'unknown'; type?: string; raw: unknown; problem: string };

export interface NormalisedResult {
  blocks: ResultBlock[];
  /** Present when the result had a `structuredContent` member (any JSON value). */
  structuredContent?: { value: unknown };
  isError: boolean;
  /** Problems with the result as a whole (not with one block). */
  problems: string[];
}

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

/** Decoded size of base64 text, or undefined when it is not base64. */
export function base64Bytes(data: string): number | undefined {
  const compact = data.replace(/\s+/g, '');
  if (!BASE64.test(compact)) return undefined;
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  return Math.floor((compact.length * 3) / 4) - padding;
}

function mediaBlock(block: Obj, kind: 'image' | 'audio', allowed: readonly string[]): ResultBlock {
  const mimeType = optionalString(block.mimeType);
  const data = optionalString(block.data);
  if (mimeType === undefined || data === undefined) {
    return { kind: 'unknown', type: kind, raw: block, problem: `${kind} block needs string "data" and "mimeType"` };
  }
  const bytes = base64Bytes(data);
  if (bytes === undefined) return { kind, mimeType, bytes: 0, problem: '"data" is not valid base64' };
  const normalised = mimeType.toLowerCase().split(';')[0].trim();
  if (!allowed.includes(normalised)) {
    const why = normalised === 'image/svg+xml' ? 'SVG is not displayed (it can carry scripts)' : `${mimeType} is not displayed`;
    return { kind, mimeType, bytes, problem: why };
  }
  return { kind, mimeType, bytes, src: `data:${normalised};base64,${data.replace(/\s+/g, '')}` };
}

function resourceLinkBlock(block: Obj): ResultBlock {
  const uri = optionalString(block.uri);
  if (uri === undefined) return { kind: 'unknown', type: 'resource_link', raw: block, problem: 'resource_link block needs a string "uri"' };
  return {
    kind: 'resource_link',
    uri,
    name: optionalString(block.name),
    title: optionalString(block.title),
    mimeType: optionalString(block.mimeType),
    description: optionalString(block.description),
  };
}

function embeddedResourceBlock(block: Obj): ResultBlock {
  const resource = block.resource;
  if (!isObject(resource) || typeof resource.uri !== 'string') {
    return { kind: 'unknown', type: 'resource', raw: block, problem: 'resource block needs a "resource" with a string "uri"' };
  }
  const base = { kind: 'resource' as const, uri: resource.uri, mimeType: optionalString(resource.mimeType) };
  if (typeof resource.text === 'string') return { ...base, text: resource.text };
  if (typeof resource.blob === 'string') {
    const blobBytes = base64Bytes(resource.blob);
    return blobBytes === undefined ? { ...base, problem: '"blob" is not valid base64' } : { ...base, blobBytes };
  }
  return { ...base, problem: 'resource has neither "text" nor "blob"' };
}

/** One content block → a ResultBlock (never throws). */
export function normaliseBlock(block: unknown): ResultBlock {
  if (!isObject(block)) return { kind: 'unknown', raw: block, problem: 'content block is not an object' };
  const type = optionalString(block.type);
  switch (type) {
    case 'text':
      return typeof block.text === 'string'
        ? { kind: 'text', text: block.text }
        : { kind: 'unknown', type, raw: block, problem: 'text block needs a string "text"' };
    case 'image':
      return mediaBlock(block, 'image', RASTER_IMAGE_TYPES);
    case 'audio':
      return mediaBlock(block, 'audio', AUDIO_TYPES);
    case 'resource_link':
      return resourceLinkBlock(block);
    case 'resource':
      return embeddedResourceBlock(block);
    default:
      return { kind: 'unknown', type, raw: block, problem: type === undefined ? 'content block has no "type"' : `unknown block type "${type}"` };
  }
}

/** A raw `tools/call` result → blocks, structuredContent, isError and problems (never throws). */
export function normaliseToolResult(raw: unknown): NormalisedResult {
  if (!isObject(raw)) return { blocks: [], isError: false, problems: ['result is not an object'] };
  const problems: string[] = [];
  let blocks: ResultBlock[] = [];
  if (Array.isArray(raw.content)) blocks = raw.content.map(normaliseBlock);
  else if (raw.content !== undefined) problems.push('"content" is not an array');
  else if (!('structuredContent' in raw)) problems.push('result has no "content"');
  if (raw.isError !== undefined && typeof raw.isError !== 'boolean') problems.push('"isError" is not a boolean');
  const result: NormalisedResult = { blocks, isError: raw.isError === true, problems };
  if ('structuredContent' in raw) result.structuredContent = { value: raw.structuredContent };
  return result;
}
