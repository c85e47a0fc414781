/**
 * Huge text → lines a windowed viewer can draw at a fixed height: split at line breaks, and very
 * long lines (minified JSON, base64) cut into segments so that no single line costs a huge layout.
 */

/** A segment of a long line is at most this many characters. */
export const SEGMENT = 2_000;

export function textLines(text: string, segment = SEGMENT): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    for (let i = start; i < end || i === start; i += segment) {
      lines.push(text.slice(i, Math.min(end, i + segment)));
      if (end - start <= segment) break;
    }
    start = end + 1;
  }
  return lines;
}

/** The first line of `text`, and how many there are when there are more (a History row's summary). */
export function firstLine(text: string): string {
  const trimmed = text.replace(/\n+$/, '');
  const newline = trimmed.indexOf('\n');
  return newline < 0 ? trimmed : `${trimmed.slice(0, newline)} … (${trimmed.split('\n').length} lines)`;
}
