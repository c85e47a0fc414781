/**
 * The UTF-8 size of a text, as `new Blob([text]).size` or `TextEncoder` count it (a lone
 * surrogate as the three bytes of U+FFFD), without a copy of the text: a Blob of a 5 MB tool
 * result cost the page ~25 ms of its render in bench/tool-result-render.mjs (issue 23), an encoded
 * copy as much memory again. Encoded a slice at a time into one small buffer instead.
 */

/** Characters encoded at a time; each takes at most three bytes. */
const SLICE = 64 * 1024;
let encoder: InstanceType<typeof TextEncoder> | undefined;
let buffer: Uint8Array | undefined;

export function utf8Length(text: string): number {
  // ASCII only (the common case) is one byte a character: a scan, no encoding.
  if (!/[\u0080-\uffff]/.test(text)) return text.length;
  encoder ??= new TextEncoder();
  buffer ??= new Uint8Array(SLICE * 3);
  let bytes = 0;
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + SLICE);
    // A surrogate pair stays in one slice (split, each half would count as U+FFFD).
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    bytes += encoder.encodeInto(text.slice(at, end), buffer).written;
    at = end;
  }
  return bytes;
}
