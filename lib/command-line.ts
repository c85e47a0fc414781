/**
 * Turning the connection form's one-line fields into argv / env / header records and back.
 *
 * The rules are a small, predictable subset of POSIX shell quoting (no variable expansion, no
 * globbing, no operators): people paste `--root "/path with spaces"` and expect it to work the way
 * their terminal would, but Loupe never runs a shell.
 */

export type SplitResult = { ok: true; args: string[] } | { ok: false; error: string };

/** Parser state for `splitArgs`: the word being built and whether one has started. */
interface Word {
  text: string;
  started: boolean;
}

/**
 * Split one line into arguments: whitespace separates; '…' is literal; "…" allows \" \\ \$ \`
 * escapes; a backslash outside quotes escapes the next character.
 */
export function splitArgs(line: string): SplitResult {
  const args: string[] = [];
  let word: Word = { text: '', started: false };
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (/\s/.test(ch)) {
      if (word.started) args.push(word.text);
      word = { text: '', started: false };
      i += 1;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { ok: false, error: 'Unclosed single quote' };
      word = { text: word.text + line.slice(i + 1, end), started: true };
      i = end + 1;
    } else if (ch === '"') {
      const read = readDoubleQuoted(line, i + 1);
      if (!read.ok) return read;
      word = { text: word.text + read.text, started: true };
      i = read.end + 1;
    } else if (ch === '\\') {
      if (i + 1 >= line.length) return { ok: false, error: 'Trailing backslash' };
      word = { text: word.text + line[i + 1], started: true };
      i += 2;
    } else {
      word = { text: word.text + ch, started: true };
      i += 1;
    }
  }
  if (word.started) args.push(word.text);
  return { ok: true, args };
}

const DOUBLE_QUOTE_ESCAPABLE = new Set(['"', '\\', '$', '`']);

function readDoubleQuoted(line: string, start: number): { ok: true; text: string; end: number } | { ok: false; error: string } {
  let text = '';
  for (let i = start; i < line.length; i += 1) {
    const ch = line[i];
    if (ch === '"') return { ok: true, text, end: i };
    if (ch === '\\' && i + 1 < line.length && DOUBLE_QUOTE_ESCAPABLE.has(line[i + 1])) {
      text += line[i + 1];
      i += 1;
    } else {
      text += ch;
    }
  }
  return { ok: false, error: 'Unclosed double quote' };
}

/** Quote one argument so that `splitArgs` gives it back unchanged. */
export function quoteArg(arg: string): string {
  if (arg === '') return "''";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The inverse of `splitArgs`: `splitArgs(joinArgs(a))` yields `a`. */
export function joinArgs(args: readonly string[]): string {
  return args.map(quoteArg).join(' ');
}

export type RecordResult = { ok: true; record: Record<string, string> } | { ok: false; error: string };

/** Lines to parse, skipping blank lines and `#` comments, with their 1-based line numbers. */
function meaningfulLines(text: string): Array<{ n: number; line: string }> {
  return text
    .split(/\r?\n/)
    .map((line, index) => ({ n: index + 1, line: line.trim() }))
    .filter(({ line }) => line !== '' && !line.startsWith('#'));
}

/** `KEY=VALUE` per line (the value may contain `=`; it is not unquoted). */
export function parseEnvLines(text: string): RecordResult {
  const record: Record<string, string> = {};
  for (const { n, line } of meaningfulLines(text)) {
    const eq = line.indexOf('=');
    const key = eq < 0 ? '' : line.slice(0, eq).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
      return { ok: false, error: `Environment line ${n}: expected KEY=VALUE` };
    }
    record[key] = line.slice(eq + 1);
  }
  return { ok: true, record };
}

export function formatEnvLines(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `Name: value` per line. */
export function parseHeaderLines(text: string): RecordResult {
  const record: Record<string, string> = {};
  for (const { n, line } of meaningfulLines(text)) {
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon).trim();
    if (!HEADER_NAME.test(name)) {
      return { ok: false, error: `Headers line ${n}: expected "Name: value"` };
    }
    record[name] = line.slice(colon + 1).trim();
  }
  return { ok: true, record };
}

export function formatHeaderLines(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}
