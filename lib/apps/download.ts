/**
 * A view's `ui/download-file` (MCP Apps draft, issue 24): the files it asks the host to save, read
 * from the request as sent, never trusted. Each item is an embedded resource (its bytes are in the
 * request) or a resource link (the host reads it from the server, through the session, only once
 * the user agreed). Names come from the view: they are tamed into plain file names here.
 *
 * Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/draft/apps.mdx
 * (`ui/download-file`: `contents` of `EmbeddedResource | ResourceLink`; the answer's `isError`).
 */

import { base64Bytes } from '../content/media.ts';
import { utf8Length } from '../content/utf8-length.ts';

/** At most this many bytes are saved for one request, all files together. */
export const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;
/** At most this many files in one request. */
export const MAX_DOWNLOAD_FILES = 20;

/** One file the view asked to save, as the page lists it. */
export interface DownloadEntry {
  name: string;
  mimeType: string;
  uri: string;
  /** Its bytes are in the request; false: a link, read from the server when the user agrees. */
  embedded: boolean;
  /** Bytes, where the request holds them. */
  size?: number;
}

/** A file's content: text as is, or bytes in base64. */
export interface FileContent {
  text?: string;
  base64?: string;
}

/** A file the page saves. */
export interface DownloadedFile extends FileContent {
  name: string;
  mimeType: string;
}

export interface DownloadRequest {
  files: Array<DownloadEntry & { content?: FileContent }>;
  /** Items that are neither an embedded resource nor a link, in words. */
  problems: string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A file name from an untrusted URI or name: its last path segment, tamed. */
export function fileNameFor(uri: string, fallback: string): string {
  const last = uri.split(/[/\\?#]/).filter(Boolean).pop() ?? '';
  const safe = last.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  return safe === '' || /^[._]+$/.test(safe) ? fallback : safe;
}

/** Bytes of a content (text as UTF-8). */
export function contentSize(content: FileContent): number {
  if (content.base64 !== undefined) return base64Bytes(content.base64) ?? content.base64.length;
  return utf8Length(content.text ?? '');
}

/** The content of a resource's contents item (`text` or `blob`), if it has one. */
export function contentOf(item: unknown): FileContent | undefined {
  if (!isRecord(item)) return undefined;
  if (typeof item.text === 'string') return { text: item.text };
  if (typeof item.blob === 'string') return { base64: item.blob };
  return undefined;
}

/** Reads `contents` of a `ui/download-file` request. */
export function filesToDownload(contents: unknown): DownloadRequest {
  const files: DownloadRequest['files'] = [];
  const problems: string[] = [];
  const items = Array.isArray(contents) ? contents : [];
  if (!Array.isArray(contents)) problems.push('its contents are not a list');
  for (const [i, item] of items.slice(0, MAX_DOWNLOAD_FILES).entries()) {
    const type = isRecord(item) ? item.type : undefined;
    if (type === 'resource' && isRecord(item) && isRecord(item.resource)) {
      const resource = item.resource;
      const uri = str(resource.uri) ?? '';
      const content = contentOf(resource);
      if (!content) {
        problems.push(`item ${i + 1} (${uri || 'no URI'}) has neither text nor blob`);
        continue;
      }
      const fallback = content.base64 !== undefined ? 'file.bin' : 'file.txt';
      files.push({ name: fileNameFor(uri, fallback), mimeType: str(resource.mimeType) ?? 'application/octet-stream', uri, embedded: true, size: contentSize(content), content });
    } else if (type === 'resource_link' && isRecord(item) && typeof item.uri === 'string') {
      files.push({ name: fileNameFor(str(item.name) ?? item.uri, fileNameFor(item.uri, 'file')), mimeType: str(item.mimeType) ?? 'application/octet-stream', uri: item.uri, embedded: false });
    } else {
      problems.push(`item ${i + 1} is ${typeof type === 'string' ? `of type "${type.slice(0, 40)}"` : 'not a content block'}, neither an embedded resource nor a resource link`);
    }
  }
  if (items.length > MAX_DOWNLOAD_FILES) problems.push(`${items.length - MAX_DOWNLOAD_FILES} items past the first ${MAX_DOWNLOAD_FILES} were left out`);
  uniqueNames(files);
  return { files, problems };
}

/** Two files of one request never share a name: `a.txt`, `a-2.txt`. */
function uniqueNames(files: Array<{ name: string }>): void {
  const seen = new Set<string>();
  for (const file of files) {
    let name = file.name;
    for (let n = 2; seen.has(name); n++) name = file.name.replace(/(\.[^.]*)?$/, (ext) => `-${n}${ext}`);
    seen.add(name);
    file.name = name;
  }
}

/** `a.csv (text/csv, 9 B)`, `b.txt (text/plain, read from the server when saved)`. */
export function describeFiles(files: readonly DownloadEntry[]): string {
  return files.map((f) => `${f.name} (${f.mimeType}, ${f.embedded ? `${f.size ?? 0} B` : `${f.uri}, read from the server when saved`})`).join(', ');
}
