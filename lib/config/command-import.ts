/**
 * A pasted `npx mcp-loupe …` or `claude mcp add …` line → the server it describes, so that each
 * export of config-export.ts imports back as the same server (issue 9, "Import and export").
 *
 * `mcp-loupe`: the options of proxy/command-line/options.ts's USAGE that describe a server (`-e/--env`,
 * `--header`, `--transport`, `--cwd`); the rest (`--port`, `--no-open` …) are skipped. lib/ cannot
 * import proxy/, hence this small reader rather than parseCliArgs.
 * `claude mcp add [options] <name> -- <command> [args…]` and `claude mcp add --transport http|sse
 * <name> <url>`: options `-t/--transport`, `-e/--env`, `-H/--header`, `-s/--scope` (ignored), all
 * before the name, `--` before a stdio command. Source: https://code.claude.com/docs/en/mcp
 * ("Option ordering: all options … must come before the server name").
 */
import type { Result, TargetInput } from './server-config.ts';

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

type Option = 'env' | 'header' | 'transport' | 'cwd' | 'skip-value' | 'skip';

const LOUPE_OPTIONS = new Map<string, Option>([
  ['-e', 'env'], ['--env', 'env'], ['--header', 'header'], ['--transport', 'transport'], ['--cwd', 'cwd'],
  ['--port', 'skip-value'], ['--host', 'skip-value'], ['--trace-limit', 'skip-value'], ['--connect-timeout', 'skip-value'],
  ['--config', 'skip-value'], ['--server', 'skip-value'], ['--no-open', 'skip'],
]);
const CLAUDE_OPTIONS = new Map<string, Option>([
  ['-e', 'env'], ['--env', 'env'], ['-H', 'header'], ['--header', 'header'], ['-t', 'transport'], ['--transport', 'transport'],
  ['-s', 'skip-value'], ['--scope', 'skip-value'], ['--client-id', 'skip-value'], ['--callback-port', 'skip-value'], ['--client-secret', 'skip'],
]);

const TRANSPORTS: Record<string, 'stdio' | 'http' | 'sse'> = { stdio: 'stdio', http: 'http', sse: 'sse', 'streamable-http': 'http' };

interface Read {
  input: Omit<TargetInput, 'target'> & { env: Record<string, string>; headers: Record<string, string> };
  /** Index of the first word that is not an option. */
  next: number;
}

/** Options from `words[start]` on, until the first word that is not one (or `--`, consumed). */
function readOptions(words: string[], start: number, known: Map<string, Option>, tool: string): Result<Read> {
  const input: Read['input'] = { env: {}, headers: {} };
  let i = start;
  for (; i < words.length && words[i].startsWith('-'); i += 1) {
    if (words[i] === '--') return { ok: true, value: { input, next: i } };
    const eq = words[i].startsWith('--') ? words[i].indexOf('=') : -1;
    const flag = eq > 0 ? words[i].slice(0, eq) : words[i];
    const option = known.get(flag);
    if (!option) return fail(`${tool}: unknown option ${flag}.`);
    if (option === 'skip') continue;
    const value = eq > 0 ? words[i].slice(eq + 1) : words[++i];
    if (value === undefined) return fail(`${tool}: ${flag} needs a value.`);
    const error = apply(input, option, value, flag);
    if (error) return fail(`${tool}: ${error}`);
  }
  return { ok: true, value: { input, next: i } };
}

function apply(input: Read['input'], option: Option, value: string, flag: string): string | undefined {
  if (option === 'env') {
    const eq = value.indexOf('=');
    if (eq <= 0) return `${flag} expects KEY=VALUE, got ${JSON.stringify(value)}.`;
    input.env[value.slice(0, eq)] = value.slice(eq + 1);
  } else if (option === 'header') {
    const colon = value.indexOf(':');
    if (colon <= 0) return `${flag} expects "Name: value", got ${JSON.stringify(value)}.`;
    input.headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
  } else if (option === 'transport') {
    const transport = TRANSPORTS[value.toLowerCase()];
    if (!transport) return `${flag} expects stdio, http or sse, got ${JSON.stringify(value)}.`;
    input.transport = transport;
  } else if (option === 'cwd') {
    input.cwd = value;
  }
  return undefined;
}

/** The arguments after `mcp-loupe` (or `npx [-y] mcp-loupe`). */
export function loupeCliTarget(args: string[]): Result<TargetInput> {
  const read = readOptions(args, 0, LOUPE_OPTIONS, 'mcp-loupe');
  if (!read.ok) return read;
  const rest = args.slice(read.value.next);
  const target = rest[0] === '--' ? rest.slice(1) : rest;
  if (target.length === 0) return fail('mcp-loupe: the line names no server (a command or a URL after the options).');
  return { ok: true, value: { ...read.value.input, target } };
}

/** The arguments after `claude mcp add`. */
export function claudeMcpAddTarget(args: string[]): Result<TargetInput & { name: string }> {
  const read = readOptions(args, 0, CLAUDE_OPTIONS, 'claude mcp add');
  if (!read.ok) return read;
  const { input, next } = read.value;
  const name = args[next];
  if (name === undefined || name === '--') return fail('claude mcp add: the line names no server (claude mcp add [options] <name> -- <command>).');
  const rest = args.slice(next + 1);
  const target = rest[0] === '--' ? rest.slice(1) : rest;
  if (target.length === 0) return fail(`claude mcp add: no command or URL after the name ${JSON.stringify(name)}.`);
  // Claude Code's default is stdio and it would run a bare URL as a command; the intent is plain, so it connects.
  const transport = input.transport ?? (/^[a-z][a-z0-9+.-]*:\/\//i.test(target[0]) ? undefined : 'stdio');
  return { ok: true, value: { ...input, transport, target, name } };
}

/** `npx -y mcp-loupe …`, `npx mcp-loupe@1 …`, `mcp-loupe …`: the words after it, else undefined. */
export function afterLoupe(command: string, args: string[]): string[] | undefined {
  const isLoupe = (word: string | undefined): boolean => word !== undefined && /^mcp-loupe(@[^/\s]*)?$/.test(word);
  if (isLoupe(command)) return args;
  if (!/^(npx|pnpx|bunx)$/.test(command)) return undefined;
  const at = args.findIndex((arg) => !arg.startsWith('-'));
  return isLoupe(args[at]) && args.slice(0, at).every((a) => a === '-y' || a === '--yes') ? args.slice(at + 1) : undefined;
}
