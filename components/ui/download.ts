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

/** A file name from an untrusted URI: its last path segment, tamed. */
export function fileNameFor(uri: string, fallback: string): string {
  const last = uri.split(/[/\\?#]/).filter(Boolean).pop() ?? '';
  const safe = last.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  return safe === '' || /^[._]+$/.test(safe) ? fallback : safe;
}
