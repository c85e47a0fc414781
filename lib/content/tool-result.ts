/**
 * A `tools/call` result as the server sent it → a typed list of blocks the UI can render safely.
 *
 * The server is untrusted: every field is checked, a bad block becomes an `unknown` block with a
 * problem while the others still render, and only raster images and common audio types get a
 * `data:` URL (an SVG can carry script, so it is never handed to <img>). The same blocks make up
 * prompt messages (`prompts/get`).
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result
 */
import { AUDIO_TYPES, RASTER_IMAGE_TYPES, base64Bytes, mediaSource, viewerFor } from './media.ts';

export { AUDIO_TYPES, RASTER_IMAGE_TYPES, base64Bytes };

/** `annotations` of a block (spec: "Annotations"), kept only when well-formed. */
export interface BlockAnnotations {
  audience?: string[];
  priority?: number;
  lastModified?: string;
}

export type Viewer = ReturnType<typeof viewerFor>;

export type ResultBlock = (
  | { kind: 'text'; text: string }
  | { kind: 'image'; mimeType: string; bytes: number; src?: string; problem?: string }
  | { kind: 'audio'; mimeType: string; bytes: number; src?: string; problem?: string }
  | { kind: 'resource_link'; uri: string; name?: string; title?: string; mimeType?: string; description?: string; size?: number }
  | EmbeddedResource
  | { kind: 'unknown'; type?: string; raw: unknown; problem: string }
) & { annotations?: BlockAnnotations };

/** An embedded resource (also one item of `resources/read` contents). */
export interface EmbeddedResource {
  kind: 'resource';
  uri: string;
  mimeType?: string;
  text?: string;
  /** The base64 text of a blob, kept for download. */
  blob?: string;
  blobBytes?: number;
  /** How the contents are best shown, from the MIME type. */
  viewer?: Viewer;
  /** A `data:` URL for a raster image or audio blob. */
  src?: string;
  problem?: string;
}

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

function annotationsOf(block: Obj): { annotations?: BlockAnnotations } {
  const a = block.annotations;
  if (!isObject(a)) return {};
  const out: BlockAnnotations = {};
  if (Array.isArray(a.audience)) out.audience = a.audience.filter((x): x is string => typeof x === 'string');
  if (typeof a.priority === 'number') out.priority = a.priority;
  if (typeof a.lastModified === 'string') out.lastModified = a.lastModified;
  return Object.keys(out).length > 0 ? { annotations: out } : {};
}

function mediaBlock(block: Obj, kind: 'image' | 'audio'): ResultBlock {
  const mimeType = optionalString(block.mimeType);
  const data = optionalString(block.data);
  if (mimeType === undefined || data === undefined) {
    return { kind: 'unknown', type: kind, raw: block, problem: `${kind} block needs string "data" and "mimeType"` };
  }
  const media = mediaSource(kind, mimeType, data);
  return 'src' in media ? { kind, mimeType, bytes: media.bytes, src: media.src } : { kind, mimeType, bytes: media.bytes, problem: media.problem };
}

function resourceLinkBlock(block: Obj): ResultBlock {
  const uri = optionalString(block.uri);
  if (uri === undefined) return { kind: 'unknown', type: 'resource_link', raw: block, problem: 'resource_link block needs a string "uri"' };
  const link: ResultBlock = {
    kind: 'resource_link',
    uri,
    name: optionalString(block.name),
    title: optionalString(block.title),
    mimeType: optionalString(block.mimeType),
    description: optionalString(block.description),
  };
  if (typeof block.size === 'number') link.size = block.size;
  return link;
}

/** One item of `resource.contents` / an embedded `resource` → what to show; never throws. */
export function normaliseResourceContents(resource: unknown): EmbeddedResource | undefined {
  if (!isObject(resource) || typeof resource.uri !== 'string') return undefined;
  const mimeType = optionalString(resource.mimeType);
  const viewer = viewerFor(mimeType);
  const base: EmbeddedResource = { kind: 'resource', uri: resource.uri, mimeType };
  if (typeof resource.text === 'string') return { ...base, text: resource.text };
  if (typeof resource.blob !== 'string') return { ...base, problem: 'resource has neither "text" nor "blob"' };
  const blobBytes = base64Bytes(resource.blob);
  if (blobBytes === undefined) return { ...base, problem: '"blob" is not valid base64' };
  const blob: EmbeddedResource = { ...base, blobBytes, blob: resource.blob, viewer: viewer === 'image' || viewer === 'audio' ? viewer : 'binary' };
  if (mimeType !== undefined && (viewer === 'image' || viewer === 'audio')) {
    const media = mediaSource(viewer, mimeType, resource.blob);
    if ('src' in media) blob.src = media.src;
    else blob.problem = media.problem;
  }
  return blob;
}

function embeddedResourceBlock(block: Obj): ResultBlock {
  const resource = normaliseResourceContents(block.resource);
  return resource ?? { kind: 'unknown', type: 'resource', raw: block, problem: 'resource block needs a "resource" with a string "uri"' };
}

function typedBlock(block: Obj, type: string | undefined): ResultBlock {
  switch (type) {
    case 'text':
      return typeof block.text === 'string'
        ? { kind: 'text', text: block.text }
        : { kind: 'unknown', type, raw: block, problem: 'text block needs a string "text"' };
    case 'image':
    case 'audio':
      return mediaBlock(block, type);
    case 'resource_link':
      return resourceLinkBlock(block);
    case 'resource':
      return embeddedResourceBlock(block);
    default:
      return { kind: 'unknown', type, raw: block, problem: type === undefined ? 'content block has no "type"' : `unknown block type "${type}"` };
  }
}

/** One content block → a ResultBlock (never throws). */
export function normaliseBlock(block: unknown): ResultBlock {
  if (!isObject(block)) return { kind: 'unknown', raw: block, problem: 'content block is not an object' };
  const normalised = typedBlock(block, optionalString(block.type));
  return normalised.kind === 'unknown' ? normalised : { ...normalised, ...annotationsOf(block) };
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

/** Texts longer than this are not parsed to look for JSON (a result must render at once). */
export const JSON_DETECT_LIMIT = 2 * 1024 * 1024;

/** Text that is a JSON object or array → pretty-printed; otherwise undefined. */
export function prettyJson(text: string, limit = JSON_DETECT_LIMIT): string | undefined {
  if (text.length > limit) return undefined;
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return undefined;
  }
}
