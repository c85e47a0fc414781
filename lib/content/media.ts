/**
 * Base64 media from a server (image and audio blocks, resource blobs) → what may be shown.
 * Only raster images and common audio types get a `data:` URL: an SVG can carry script.
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

// A flat character class, not a repeated group: a repeated group overflows the regexp stack on
// a 20 MB string (the page must survive a 20 MB image).
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;
const WHITESPACE = /\s/;

/** Base64 text without its line breaks (MIME-style base64 wraps lines). */
export function compactBase64(data: string): string {
  return WHITESPACE.test(data) ? data.replace(/\s+/g, '') : data;
}

/** Decoded size of base64 text, or undefined when it is not base64 (padding optional). */
export function base64Bytes(data: string): number | undefined {
  const compact = compactBase64(data);
  if (!BASE64_CHARS.test(compact)) return undefined;
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  if (padding > 0 && compact.length % 4 !== 0) return undefined;
  if (compact.length % 4 === 1) return undefined;
  return Math.floor((compact.length * 3) / 4) - padding;
}

/** The MIME type without parameters, lower case (`Image/PNG; q=1` → `image/png`). */
export function baseMimeType(mimeType: string): string {
  return mimeType.toLowerCase().split(';')[0].trim();
}

export type MediaKind = 'image' | 'audio';

/** A `data:` URL for base64 media of an allowed type, or why there is none. */
export function mediaSource(kind: MediaKind, mimeType: string, data: string): { src: string; bytes: number } | { problem: string; bytes: number } {
  const bytes = base64Bytes(data);
  if (bytes === undefined) return { problem: '"data" is not valid base64', bytes: 0 };
  const normalised = baseMimeType(mimeType);
  const allowed: readonly string[] = kind === 'image' ? RASTER_IMAGE_TYPES : AUDIO_TYPES;
  if (!allowed.includes(normalised)) {
    return { problem: normalised === 'image/svg+xml' ? 'SVG is not displayed (it can carry scripts)' : `${mimeType} is not displayed`, bytes };
  }
  return { src: `data:${normalised};base64,${compactBase64(data)}`, bytes };
}

/** Which viewer suits a MIME type (for resource contents). */
export function viewerFor(mimeType: string | undefined): 'json' | 'markdown' | 'html' | 'image' | 'audio' | 'text' | 'binary' {
  const type = mimeType === undefined ? '' : baseMimeType(mimeType);
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type === '' || type.startsWith('text/') || /(xml|javascript|yaml|toml|csv)$/.test(type)) return 'text';
  return 'binary';
}

/** Decode base64 to bytes (for downloads); undefined when it is not base64. */
export function decodeBase64(data: string): Uint8Array | undefined {
  if (base64Bytes(data) === undefined) return undefined;
  try {
    const binary = atob(compactBase64(data));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}
