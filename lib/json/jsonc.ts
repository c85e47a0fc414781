/**
 * JSON with comments (JSONC), as VS Code writes `.vscode/mcp.json` and `settings.json`.
 * JSON.parse rejects comments and trailing commas, so they are blanked out first.
 */

/**
 * Replace `// …` and `/* … *\/` comments, and commas that only precede a `}` or `]`, with spaces.
 * Newlines are kept and the length is unchanged, so JSON.parse's error positions still point into
 * the user's file. A hand-written scanner, because a regex cannot tell a comment from `//` inside a
 * string (`"https://…"`), and a dependency for this is not worth its weight.
 */
export function stripJsonComments(text: string): string {
  const out = text.split('');
  let pendingComma = -1;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const skip = c === '"' ? skipString(text, i) : c === '/' ? commentEnd(text, i) : -1;
    if (skip >= 0) {
      if (c === '/') blank(out, i, skip);
      else pendingComma = -1;
      i = skip;
      continue;
    }
    if (c === ',') pendingComma = i;
    else if ((c === '}' || c === ']') && pendingComma >= 0) out[pendingComma] = ' ';
    if (c !== ',' && !/\s/.test(c)) pendingComma = -1;
    i++;
  }
  return out.join('');
}

/** Index just past the string that opens at `start` (or the end of text when it never closes). */
function skipString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, text.length);
}

/** Index just past the comment that opens at `start`, or -1 when `/` starts no comment. */
function commentEnd(text: string, start: number): number {
  const next = text[start + 1];
  if (next === '/') {
    const newline = text.indexOf('\n', start);
    return newline < 0 ? text.length : newline;
  }
  if (next === '*') {
    const close = text.indexOf('*/', start + 2);
    return close < 0 ? text.length : close + 2;
  }
  return -1;
}

function blank(chars: string[], from: number, to: number): void {
  for (let i = from; i < to; i++) if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
}

/** 1-based line and column of a 0-based offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastNewline = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastNewline };
}

/**
 * Parse JSONC. Errors name the line and column when the engine gives a position (V8 says
 * "at position N"; newer engines already say "line L column C", which is kept as is).
 */
export function parseJsonc(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(stripJsonComments(text)) };
  } catch (e) {
    const message = (e instanceof Error ? e.message : String(e)).replace(/\s*\n\s*/g, ' ');
    const position = /at position (\d+)/.exec(message);
    if (!position || /line \d+/.test(message)) return { ok: false, error: `Invalid JSON: ${message}` };
    const { line, column } = lineColumn(text, Number(position[1]));
    return { ok: false, error: `Invalid JSON at line ${line}, column ${column}: ${message}` };
  }
}
