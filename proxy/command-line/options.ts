/**
 * The command line of docs/contract.md: `mcp-loupe [options] <command> [args...] | <url> | --config <file>`.
 * Parsing stops at the first positional word, so that everything from the target on reaches the
 * server verbatim (`mcp-loupe npx -y srv --port 9` gives `--port 9` to the server).
 */
import { statSync } from 'node:fs';
import { checkHeadless, emptyHeadless, HEADLESS_OPTIONS, modeOf, takeTrailingOptions } from './headless.ts';
import { isProtocolChoice } from '../../lib/model/protocol.ts';
import { checkOAuth, emptyOAuth, OAUTH_OPTIONS, OAUTH_USAGE } from './oauth.ts';
import { checkOtel, checkRelay, emptyRelay, OTEL_OPTIONS, OTEL_USAGE, RELAY_OPTIONS, RELAY_USAGE } from './relay.ts';
import { checkEvals, checkTest, EVAL_OPTIONS, TEST_OPTIONS } from './collections.ts';
import type { CliOptions } from './types.ts';

export { resolveTarget, type ResolvedTarget, type TargetDeps, type WorkspaceTarget } from './target.ts';
export type { CliOptions } from './types.ts';

export type CliParseResult = { ok: true; options: CliOptions } | { ok: false; error: string };

export const USAGE = `Usage:
  mcp-loupe [options] <command> [args...]      inspect a stdio server (node build/index.js, server.py, …)
  mcp-loupe [options] <url>                     inspect a remote server (Streamable HTTP, falling back to SSE)
  mcp-loupe [options] --config <file> [--server <name>]...
  mcp-loupe [options]                           inspect the bundled demo server

Options go before the target; everything after the target is passed to the server.
  --port <n>                      port on 127.0.0.1 (default: a free one near 6280; 0: any free port)
  --no-open                       do not open a browser
  --watch [PATH]...               restart the stdio server when its files change (default: its script's folder,
                                  without node_modules, .git and build outputs); Restart in the page does it too;
                                  after each restart the page shows what changed in the tools, resources and prompts
  -e, --env KEY=VALUE             environment variable for a stdio server (repeatable)
  --cwd <dir>                     working directory for a stdio server
  --transport stdio|http|sse      force a transport (http: Streamable HTTP only, no SSE fallback)
  --header "Name: value"          HTTP header for a remote server (repeatable)
  --protocol 2025-11-25|2026-07-28|auto
                                  the protocol generation: 2025-11-25 sessions with initialize (default),
                                  2026-07-28 stateless, or auto (ask with server/discover and say why)
  --config <file>                 open the servers of an mcp.json-style file (Claude Desktop, Cursor, VS Code,
                                  Claude Code, Windsurf, Cline; JSONC) and connect all of them at once
  --server <name>                 connect only this server of the --config file (repeatable); the others are listed
  --trace-limit <n>               events kept per session in the trace (default 50000; older ones are dropped and counted)
  --connect-timeout <ms>          how long initialize may take before Loupe gives up (default 30000)
  --host <loopback>               127.0.0.1 (default), ::1 or localhost
  --dangerously-listen-on <host>  listen beyond loopback: anyone who can reach it can run commands here
  --record <file>                 write the session's trace as JSONL while it runs (every mode; several servers: one file each)
  -h, --help                      show this help
  --version                       print the version

Without a browser (same targets; exit 0 ok, 1 server error / isError / failures / drift, 2 usage, 3 cannot connect, 4 timeout):
  mcp-loupe --cli --method <m> [request options] <target>     one request, its result as JSON on stdout
      <m>: tools/list tools/call resources/list resources/templates/list resources/read prompts/list prompts/get ping initialize
      --tool-name <name>          the tool of tools/call
      --tool-arg key=value        a tool argument (repeatable): JSON when it parses as JSON (except for string
                                  properties of the tool's schema), key:=json forces JSON
      --args '<json object>'      all the tool's arguments at once
      --uri <uri>                 the resource of resources/read
      --prompt-name <name>        the prompt of prompts/get, with --prompt-args key=value (repeatable)
      --format pretty|json|text   pretty JSON (default), one line, or the text content alone
      --verbose                   the protocol trace on stderr
      --filter <query>            with --verbose: only the frames the History query matches ('method:tools/call -status:error')
      --timeout <ms>              how long each request (and initialize) may take
    (the request options may also follow the target, as in the official inspector's CLI; a -- ends them)
  mcp-loupe --smoke [--junit <file>] [--no-negative] [--allow-writes] <target>
                                  call every read-only tool (readOnlyHint: true) with arguments made from its schema
      --allow-writes              also call the tools that may change data: by the MCP spec, every tool without
                                  readOnlyHint: true; the arguments are made up, so give the server a scratch copy of your data
  mcp-loupe --verify <trace.jsonl> [--ignore <jsonpath>]... [--lock <file>] <target>   replay a recording; exit 1 on drift
  mcp-loupe --lock <file> [--update-lock] <target>              write, or check, the tool-surface lockfile
  mcp-loupe --doctor [--format text|json|markdown] <target>      lint and validate the server; exit 1 on errors
  mcp-loupe --export-tools openai|anthropic|gemini <target>     the tool definitions for an LLM API, cleaned
  mcp-loupe --mock <trace.jsonl> [--mock-port <n> [--mock-no-auth]]   be an MCP server answering from a recording
                                                                (stdio; --mock-port: Streamable HTTP on 127.0.0.1, for clients
                                                                that send the token it prints (Authorization: Bearer …), new at
                                                                every launch; --mock-no-auth asks for none: then anyone on this
                                                                machine can read the recording through it)
  mcp-loupe --test <file> [--collection <name>]... [--var NAME=VALUE]... [--junit <file>] <target>
                                  run the file's collections (calls with assertions; README "Collections");
                                  exit 1 when a call fails or errs
      --collection <name>         run only this collection of the file (repeatable)
      --var NAME=VALUE            a variable for {{NAME}}, a string (NAME:=JSON for a number, a list …); wins over
                                  the file's variables and over values extracted from earlier answers (repeatable)
  mcp-loupe --eval <file> [--model <provider:model>]... [--repeats <n>] [--junit <file>] <target>
                                  ask models to do the file's cases with the server's tools; exit 1 when a run fails
      --model <word>              anthropic:MODEL, openai:MODEL, openai-compatible:URL#MODEL (anthropic:URL#MODEL),
                                  optionally ,key=NAME_API_KEY; keys come from the environment only (ANTHROPIC_API_KEY,
                                  OPENAI_API_KEY, … for their own APIs); default: the file's "models"
      --repeats <n>               runs of each case with each model (default: the file's "repeats", else 1)
  How the client answers the server (every mode without a browser):
      --sample "<text>"           the reply to sampling requests (without it they are refused)
      --elicit accept-defaults|decline|cancel    the answer to elicitations (default decline)
      --root <uri>                a root to offer (repeatable)

${RELAY_USAGE}
${OTEL_USAGE}
Scripts run with their interpreter: .py with python3, .js with node, .ts with npx -y tsx.
${OAUTH_USAGE}`;

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

type Apply = (options: CliOptions, value: string, flag: string) => string | undefined;
interface OptionSpec {
  takesValue: boolean;
  /** Returns an error message, or undefined when the value was taken. */
  apply: Apply;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const TRANSPORTS = new Map<string, 'stdio' | 'http' | 'sse'>([
  ['stdio', 'stdio'],
  ['http', 'http'],
  ['sse', 'sse'],
  ['streamable-http', 'http'],
  ['streamablehttp', 'http'],
]);

const flag = (apply: (options: CliOptions) => void): OptionSpec => ({ takesValue: false, apply: (o) => void apply(o) });
const valued = (apply: Apply): OptionSpec => ({ takesValue: true, apply });
const nonEmpty = (set: (o: CliOptions, v: string) => void): OptionSpec =>
  valued((o, v, f) => (v === '' ? `${f} needs a value.` : void set(o, v)));

const OPTIONS = new Map<string, OptionSpec>([
  ['--port', valued(applyPort)],
  ['--no-open', flag((o) => (o.open = false))],
  ['--env', valued(applyEnv)],
  ['--cwd', nonEmpty((o, v) => (o.cwd = v))],
  ['--transport', valued(applyTransport)],
  ['--protocol', valued(applyProtocol)],
  ['--header', valued(applyHeader)],
  ['--config', nonEmpty((o, v) => (o.config = v))],
  ['--server', nonEmpty((o, v) => void o.servers.push(v))],
  ['--host', valued(applyHost)],
  ['--trace-limit', valued(applyTraceLimit)],
  ['--connect-timeout', valued(applyConnectTimeout)],
  ['--dangerously-listen-on', nonEmpty((o, v) => (o.host = unbracket(v)))],
  ['--help', flag((o) => (o.help = true))],
  ['--version', flag((o) => (o.version = true))],
]);
const ALIASES = new Map([
  ['-e', '--env'],
  ['-h', '--help'],
]);

function applyProtocol(o: CliOptions, value: string, f: string): string | undefined {
  const choice = value.toLowerCase();
  if (!isProtocolChoice(choice)) return `${f} expects 2025-11-25, 2026-07-28 or auto, got ${JSON.stringify(value)}.`;
  o.protocol = choice;
  return undefined;
}

function applyPort(o: CliOptions, value: string, f: string): string | undefined {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port <= 65535)) return `${f} expects a number from 0 to 65535, got ${JSON.stringify(value)}.`;
  o.port = port;
  return undefined;
}

function applyTraceLimit(o: CliOptions, value: string, f: string): string | undefined {
  const limit = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 100)) return `${f} expects a number of events, at least 100, got ${JSON.stringify(value)}.`;
  o.traceLimit = limit;
  return undefined;
}

/** Milliseconds, from 100 ms to an hour (the wire's limit for the same field). */
function applyConnectTimeout(o: CliOptions, value: string, f: string): string | undefined {
  const ms = /^\d{1,7}$/.test(value) ? Number(value) : NaN;
  if (!(ms >= 100 && ms <= 3_600_000)) return `${f} expects milliseconds from 100 to 3600000, got ${JSON.stringify(value)}.`;
  o.connectTimeoutMs = ms;
  return undefined;
}

function applyEnv(o: CliOptions, value: string, f: string): string | undefined {
  const eq = value.indexOf('=');
  if (eq <= 0) return `${f} expects KEY=VALUE, got ${JSON.stringify(value)}.`;
  o.env[value.slice(0, eq)] = value.slice(eq + 1);
  return undefined;
}

function applyTransport(o: CliOptions, value: string, f: string): string | undefined {
  const transport = TRANSPORTS.get(value.toLowerCase());
  if (!transport) return `${f} expects stdio, http or sse, got ${JSON.stringify(value)}.`;
  o.transport = transport;
  return undefined;
}

/** `Name: value`. A repeated name replaces the earlier one (HTTP names are case-insensitive). */
function applyHeader(o: CliOptions, value: string, f: string): string | undefined {
  const colon = value.indexOf(':');
  const name = value.slice(0, Math.max(colon, 0)).trim();
  if (colon < 0 || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) {
    return `${f} expects "Name: value", got ${JSON.stringify(value)}.`;
  }
  for (const existing of Object.keys(o.headers)) if (existing.toLowerCase() === name.toLowerCase()) delete o.headers[existing];
  o.headers[name] = value.slice(colon + 1).trim();
  return undefined;
}

const unbracket = (host: string): string => host.replace(/^\[(.*)\]$/, '$1');

function applyHost(o: CliOptions, value: string, f: string): string | undefined {
  const host = unbracket(value);
  if (!LOOPBACK.has(host.toLowerCase())) {
    return `${f} accepts only loopback (127.0.0.1, ::1, localhost). To listen on ${value}, use --dangerously-listen-on ${value}: anyone who can reach it can run commands on this machine.`;
  }
  o.host = host;
  return undefined;
}

/** A folder, or a file that is not a program: `/usr/bin/node` after `--watch` is the command, not a path. */
function watchable(word: string): boolean {
  try {
    const stat = statSync(word);
    return stat.isDirectory() || (stat.isFile() && (stat.mode & 0o111) === 0);
  } catch {
    return false;
  }
}

/**
 * `--watch [PATH]…`: the words after it are paths while each names an existing folder or a file that is not a program, and
 * is not where the target begins (the last word, or after `--` everything before it is a path);
 * `--watch=PATH` is always one. Returns the index of the last word taken.
 */
function readWatch(argv: string[], i: number, options: CliOptions, exists: (p: string) => boolean): number {
  const paths = (options.watch ??= []);
  if (argv[i].startsWith('--watch=')) {
    paths.push(argv[i].slice('--watch='.length));
    return i;
  }
  const dashes = argv.indexOf('--', i + 1);
  let j = i + 1;
  for (; j < argv.length; j++) {
    const word = argv[j];
    if (word === '--' || (word.startsWith('-') && word.length > 1)) break;
    const isPath = dashes > j ? true : j < argv.length - 1 && exists(word);
    if (!isPath) break;
    paths.push(word);
  }
  return j - 1;
}

export function parseCliArgs(argv: string[], deps: { exists?: (p: string) => boolean } = {}): CliParseResult {
  deps.exists ??= watchable;
  const options: CliOptions = { open: true, host: '127.0.0.1', env: {}, headers: {}, servers: [], help: false, version: false, target: [], headless: emptyHeadless(), oauth: emptyOAuth(), relay: emptyRelay() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      options.target = argv.slice(i + 1);
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      options.target = argv.slice(i);
      break;
    }
    if (arg === '--watch' || arg.startsWith('--watch=')) {
      i = readWatch(argv, i, options, deps.exists);
      continue;
    }
    const read = readOption(argv, i);
    if (!read.ok) return read;
    const error = read.spec.apply(options, read.value, read.flag);
    if (error) return fail(error);
    i = read.next;
  }
  if (options.help || options.version) return { ok: true, options };
  if (modeOf(options.headless) !== undefined) {
    const trailing = takeTrailingOptions(options);
    if (trailing) return fail(trailing);
  }
  const error =
    checkCombination(options) ??
    checkRelay({ relay: options.relay, target: options.target, config: options.config, headlessMode: modeOf(options.headless) }) ??
    checkEvals(options) ??
    checkOtel({ otel: options.otel, tap: options.relay.tap, headlessMode: modeOf(options.headless) }) ??
    checkTest(options) ??
    checkHeadless(options) ??
    checkOAuth(options.oauth, { words: options.target, config: options.config });
  return error ? fail(error) : { ok: true, options };
}

type ReadOption = { ok: true; spec: OptionSpec; flag: string; value: string; next: number } | { ok: false; error: string };

/** The option at argv[i], in `--flag value` or `--flag=value` form. */
function readOption(argv: string[], i: number): ReadOption {
  const arg = argv[i];
  const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
  const typed = eq > 0 ? arg.slice(0, eq) : arg;
  const spec = OPTIONS.get(ALIASES.get(typed) ?? typed) ?? HEADLESS_OPTIONS.get(typed) ?? EVAL_OPTIONS.get(typed) ?? TEST_OPTIONS.get(typed) ?? OAUTH_OPTIONS.get(typed) ?? RELAY_OPTIONS.get(typed) ?? OTEL_OPTIONS.get(typed);
  if (!spec) {
    return fail(`Unknown option ${typed}. Options for the server go after its command: mcp-loupe [options] <command> [args...]. See mcp-loupe --help.`);
  }
  const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
  if (!spec.takesValue) {
    return inline === undefined ? { ok: true, spec, flag: typed, value: '', next: i } : fail(`${typed} takes no value.`);
  }
  if (inline !== undefined) return { ok: true, spec, flag: typed, value: inline, next: i };
  const next = argv[i + 1];
  if (next === undefined) return fail(`${typed} needs a value.`);
  // `--cwd --no-open` is a forgotten value, not a directory named "--no-open".
  if (next.startsWith('-') && next.length > 1) {
    return fail(`${typed} needs a value, got the option ${next} (write ${typed}=${next} if you mean it).`);
  }
  return { ok: true, spec, flag: typed, value: next, next: i + 1 };
}

/** Options that only make sense together; the user's options are never silently dropped. */
function checkCombination(o: CliOptions): string | undefined {
  if (o.config !== undefined && o.target.length > 0) {
    return `--config and a target (${o.target[0]}) cannot be combined: read the server from the file, or give its command or URL.`;
  }
  if (o.servers.length > 0 && o.config === undefined) return '--server picks a server from a file: add --config <file>.';
  if (o.watch !== undefined && (o.config !== undefined || o.target.length === 0 || /^https?:\/\//i.test(o.target[0]) || o.relay.gateway || modeOf(o.headless) !== undefined)) {
    return '--watch restarts a stdio server Loupe starts: give its command (mcp-loupe --watch [PATH]… <command>, or with --tap after --), not a URL, --config, --gateway or a mode without a browser.';
  }
  const serverOptions = [
    Object.keys(o.env).length > 0 && '-e/--env',
    o.cwd !== undefined && '--cwd',
    Object.keys(o.headers).length > 0 && '--header',
    o.transport !== undefined && '--transport',
  ].filter((name): name is string => typeof name === 'string');
  if (serverOptions.length > 0 && o.config === undefined && o.target.length === 0) {
    return `${serverOptions.join(', ')} describe the server to inspect, but none was given: add a command, a URL or --config <file>.`;
  }
  return undefined;
}

