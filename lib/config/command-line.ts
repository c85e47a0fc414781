/**
 * Turning the connection form's one-line fields into argv / env / header records and back.
 *
 * The rules are a small, predictable subset of POSIX shell quoting (no variable expansion, no
 * globbing, no operators): people paste `--root "/path with spaces"` and expect it to work the way
 * their terminal would, but Loupe never runs a shell.
 */

export type SplitResult = { ok: true; args: string[] } | { ok: false; error: string };

/** One word of a line: its text after unquoting, what was typed, and where it started (0-based). */
export interface Token {
  text: string;
  raw: string;
  start: number;
}

export type TokenizeResult = { ok: true; tokens: Token[] } | { ok: false; error: string; column: number };

/** Parser state: the word being built, where it began, and whether one has started. */
interface Word {
  text: string;
  start: number;
}

/**
 * Split one line into arguments: whitespace separates; '…' is literal; "…" allows \" \\ \$ \`
 * escapes; a backslash outside quotes escapes the next character.
 */
export function splitArgs(line: string): SplitResult {
  const tokens = tokenize(line);
  return tokens.ok ? { ok: true, args: tokens.tokens.map((t) => t.text) } : { ok: false, error: tokens.error };
}

/**
 * Outside quotes a backslash escapes only what a shell would otherwise treat specially, so that a
 * Windows path pasted as typed (`C:\srv\main.js`) keeps its backslashes; a backslash-newline joins lines.
 */
const UNQUOTED_ESCAPABLE = /[\s'"\\$`|;&<>()#*?[\]{}~!]/;
/** `C:\…` or `\\host\…`: every backslash in such a word is part of the path. */
const WINDOWS_PATH = /^(?:[A-Za-z]:\\|\\\\)/;

/** The words of a line, or the first quoting error and its 1-based column. */
export function tokenize(line: string): TokenizeResult {
  const tokens: Token[] = [];
  let word: Word | undefined;
  const push = (end: number): void => {
    if (word) tokens.push({ text: word.text, raw: line.slice(word.start, end), start: word.start });
    word = undefined;
  };
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    const joined = ch === '\\' ? /^\\\r?\n/.exec(line.slice(i, i + 3)) : null;
    if (/\s/.test(ch) || (joined && !word)) {
      push(i);
      i += joined ? joined[0].length : 1;
      continue;
    }
    word ??= { text: '', start: i };
    const read = readPiece(line, i, word.start);
    if (!read.ok) return read;
    word.text += read.text;
    i = read.end;
  }
  push(line.length);
  return { ok: true, tokens };
}

type Piece = { ok: true; text: string; end: number } | { ok: false; error: string; column: number };

/** One quoted run, escape or character at `i`, inside a word that began at `wordStart`. */
function readPiece(line: string, i: number, wordStart: number): Piece {
  const ch = line[i];
  if (ch === "'") {
    const end = line.indexOf("'", i + 1);
    if (end < 0) return { ok: false, error: 'Unclosed single quote', column: i + 1 };
    return { ok: true, text: line.slice(i + 1, end), end: end + 1 };
  }
  if (ch === '"') {
    const read = readDoubleQuoted(line, i + 1);
    return read.ok ? { ok: true, text: read.text, end: read.end + 1 } : { ok: false, error: read.error, column: i + 1 };
  }
  if (ch !== '\\') return { ok: true, text: ch, end: i + 1 };
  if (i + 1 >= line.length) return { ok: false, error: 'Trailing backslash', column: i + 1 };
  const next = line[i + 1];
  if (next === '\n') return { ok: true, text: '', end: i + 2 };
  if (next === '\r' && line[i + 2] === '\n') return { ok: true, text: '', end: i + 3 };
  if (WINDOWS_PATH.test(line.slice(wordStart)) || !UNQUOTED_ESCAPABLE.test(next)) return { ok: true, text: '\\', end: i + 1 };
  return { ok: true, text: next, end: i + 2 };
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

// ---------------------------------------------------------------------------------------------
// A pasted command line (issue 9, "Import and export")

export type CommandLineResult =
  | { ok: true; value: { command: string; args: string[]; env: Record<string, string> } }
  | { ok: false; error: string };

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;
/** Unquoted, these make a line a shell program rather than one command; Loupe runs no shell. */
const SHELL_OPERATOR = /^(?:\|\|?|&&?|;|<|>>?)$/;

/**
 * `API_KEY=x FOO='a b' npx -y pkg --flag "q"` → command `npx`, args `-y pkg --flag q`, env
 * `API_KEY=x FOO=a b`. `KEY=value` words count as environment only before the command (as in a
 * shell, where `cmd A=1` passes `A=1` as an argument), and only when the name is typed unquoted.
 * A leading `env` (the POSIX utility) is the same form: `env KEY=v cmd`. `$VAR` is not expanded.
 */
export function parseCommandLine(line: string): CommandLineResult {
  const tokens = tokenize(line);
  if (!tokens.ok) return { ok: false, error: `${tokens.error} at column ${tokens.column}` };
  const words = tokens.tokens;
  const operator = words.find((t) => SHELL_OPERATOR.test(t.raw));
  if (operator) {
    return { ok: false, error: `Shell operator "${operator.raw}" at column ${operator.start + 1}: paste one command (Loupe runs no shell).` };
  }
  let i = 0;
  if (words[0]?.raw === 'env') {
    i = 1;
    const option = words[1]?.raw.startsWith('-') ? words[1] : undefined;
    if (option) return { ok: false, error: `"env ${option.raw}" at column ${option.start + 1}: only "env KEY=value command" is understood.` };
  }
  const env: Record<string, string> = {};
  for (; i < words.length; i += 1) {
    const name = ASSIGNMENT.exec(words[i].raw)?.[1];
    if (name === undefined) break;
    env[name] = words[i].text.slice(name.length + 1);
  }
  const [command, ...args] = words.slice(i).map((t) => t.text);
  if (command === undefined || command === '') {
    return { ok: false, error: words.length === 0 ? 'The command line is empty.' : 'The command line sets variables but names no command.' };
  }
  return { ok: true, value: { command, args, env } };
}
