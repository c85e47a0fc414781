import type { DownloadedFile } from '../../lib/apps/download.ts';
import { decodeBase64 } from '../../lib/content/media.ts';

/** Save bytes or text as a file, without a network request (a `blob:` URL; the page's CSP allows it). */
export function downloadData(data: string | Uint8Array, filename: string, mimeType = 'application/octet-stream'): void {
  const part: BlobPart = typeof data === 'string' ? data : new Uint8Array(data);
  const url = URL.createObjectURL(new Blob([part], { type: mimeType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** A file name from an untrusted URI (lib/apps/download.ts: the proxy names a view's downloads the same way). */
export { fileNameFor } from '../../lib/apps/download.ts';

/** Saves a file a view asked to download (its text as is, or its base64 decoded). */
export function saveFile(file: DownloadedFile): void {
  const bytes = file.base64 !== undefined ? decodeBase64(file.base64) : undefined;
  downloadData(bytes ?? file.text ?? '', file.name, file.mimeType);
}
