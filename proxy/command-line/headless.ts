/**
 * The command line of the modes without a browser (issue 10, docs/contract.md): `--cli`, `--smoke`,
 * `--mock`, `--verify`, `--lock`, and `--record` for every mode. The words are the official
 * inspector CLI's (`--method`, `--tool-name`, `--tool-arg`, …) so that nobody relearns them, and as
 * there, the request options may also follow the target: `mcp-loupe --cli node srv.js --method
 * tools/list`. A `--` in the target ends that: what follows it goes to the server untouched.
 */
import { parsePath } from '../../lib/json/json-path.ts';
import { parseQuery } from '../../lib/trace/query.ts';
import { CLI_METHODS, type CliMethod, type CliOptions, type HeadlessMode, type HeadlessOptions } from './types.ts';

export function emptyHeadless(): HeadlessOptions {
  return { cli: false, smoke: false, doctor: false, toolArgs: [], promptArgs: [], format: 'pretty', verbose: false, roots: [], negative: true, allowWrites: false, mockNoAuth: false, ignore: [], updateLock: false };
}

/** Which mode the options ask for: undefined is the UI. */
export function modeOf(h: HeadlessOptions): HeadlessMode | undefined {
  if (h.mock !== undefined) return 'mock';
  if (h.doctor) return 'doctor';
  if (h.exportTools !== undefined) return 'export-tools';
  if (h.smoke) return 'smoke';
  if (h.verify !== undefined) return 'verify';
  if (h.eval !== undefined) return 'eval';
  if (h.test !== undefined) return 'test';
  if (h.cli) return 'cli';
  if (h.lock !== undefined) return 'lock';
  return undefined;
}

type Apply = (options: CliOptions, value: string, flag: string) => string | undefined;
export interface HeadlessSpec {
  takesValue: boolean;
  apply: Apply;
  /** May also appear after the target (the official inspector's habit): request options only. */
  afterTarget?: boolean;
}

const h = (o: CliOptions) => o.headless;
const flag = (apply: (o: CliOptions) => void, afterTarget = false): HeadlessSpec => ({ takesValue: false, apply: (o) => void apply(o), afterTarget });
const valued = (apply: Apply, afterTarget = false): HeadlessSpec => ({ takesValue: true, apply, afterTarget });
const text = (set: (o: CliOptions, v: string) => void, afterTarget = false): HeadlessSpec =>
  valued((o, v, f) => (v === '' ? `${f} needs a value.` : void set(o, v)), afterTarget);

function applyMethod(o: CliOptions, value: string, f: string): string | undefined {
  if (!(CLI_METHODS as readonly string[]).includes(value)) return `${f} expects one of ${CLI_METHODS.join(', ')}; got ${JSON.stringify(value)}.`;
  h(o).method = value as CliMethod;
  return undefined;
}

function applyArgs(o: CliOptions, value: string, f: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    return `${f} expects a JSON object, and this is not JSON (${(error as Error).message}).`;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return `${f} expects a JSON object such as '{"a":1}', got ${Array.isArray(parsed) ? 'an array' : JSON.stringify(parsed)}.`;
  h(o).args = parsed as Record<string, unknown>;
  return undefined;
}

function applyKeyValue(list: (o: CliOptions) => string[]): Apply {
  return (o, value, f) => {
    const eq = value.indexOf('=');
    if (eq <= 0 || (eq === 1 && value[0] === ':')) return `${f} expects key=value (or key:=json), got ${JSON.stringify(value)}.`;
    list(o).push(value);
    return undefined;
  };
}

function applyFormat(o: CliOptions, value: string, f: string): string | undefined {
  if (value !== 'json' && value !== 'text' && value !== 'pretty' && value !== 'markdown') return `${f} expects json, text or pretty (markdown with --doctor), got ${JSON.stringify(value)}.`;
  h(o).format = value;
  return undefined;
}

function applyTimeout(o: CliOptions, value: string, f: string): string | undefined {
  const ms = /^\d{1,8}$/.test(value) ? Number(value) : NaN;
  if (!(ms >= 1 && ms <= 86_400_000)) return `${f} expects milliseconds from 1 to 86400000, got ${JSON.stringify(value)}.`;
  h(o).timeoutMs = ms;
  return undefined;
}

function applyElicit(o: CliOptions, value: string, f: string): string | undefined {
  if (value !== 'accept-defaults' && value !== 'decline' && value !== 'cancel') return `${f} expects accept-defaults, decline or cancel, got ${JSON.stringify(value)}.`;
  h(o).elicit = value;
  return undefined;
}

function applyExportTools(o: CliOptions, value: string, f: string): string | undefined {
  if (value !== 'openai' && value !== 'anthropic' && value !== 'gemini') return `${f} expects openai, anthropic or gemini, got ${JSON.stringify(value)}.`;
  h(o).exportTools = value;
  return undefined;
}

function applyMockPort(o: CliOptions, value: string, f: string): string | undefined {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port <= 65535)) return `${f} expects a number from 0 to 65535, got ${JSON.stringify(value)}.`;
  h(o).mockPort = port;
  return undefined;
}

function applyFilter(o: CliOptions, value: string, f: string): string | undefined {
  if (value.trim() === '') return `${f} needs a query, as in ${f} 'method:tools/call -status:error'.`;
  const { error } = parseQuery(value);
  if (error) return `${f}: ${error.message}`;
  h(o).filter = value;
  return undefined;
}

export const HEADLESS_OPTIONS = new Map<string, HeadlessSpec>([
  ['--cli', flag((o) => (h(o).cli = true))],
  ['--method', valued(applyMethod, true)],
  ['--tool-name', text((o, v) => (h(o).toolName = v), true)],
  ['--tool-arg', valued(applyKeyValue((o) => h(o).toolArgs), true)],
  ['--args', valued(applyArgs, true)],
  ['--uri', text((o, v) => (h(o).uri = v), true)],
  ['--prompt-name', text((o, v) => (h(o).promptName = v), true)],
  ['--prompt-args', valued(applyKeyValue((o) => h(o).promptArgs), true)],
  ['--format', valued(applyFormat, true)],
  ['--verbose', flag((o) => (h(o).verbose = true), true)],
  ['--filter', valued(applyFilter, true)],
  ['--timeout', valued(applyTimeout, true)],
  ['--elicit', valued(applyElicit)],
  ['--sample', valued((o, v) => void (h(o).sample = v))],
  ['--root', text((o, v) => void h(o).roots.push(v))],
  ['--record', text((o, v) => (h(o).record = v))],
  ['--smoke', flag((o) => (h(o).smoke = true))],
  ['--junit', text((o, v) => (h(o).junit = v))],
  ['--no-negative', flag((o) => (h(o).negative = false))],
  ['--allow-writes', flag((o) => (h(o).allowWrites = true))],
  ['--mock', text((o, v) => (h(o).mock = v))],
  ['--mock-port', valued(applyMockPort)],
  ['--mock-no-auth', flag((o) => (h(o).mockNoAuth = true))],
  ['--verify', text((o, v) => (h(o).verify = v))],
  ['--ignore', text((o, v) => void h(o).ignore.push(v))],
  ['--lock', text((o, v) => (h(o).lock = v))],
  ['--update-lock', flag((o) => (h(o).updateLock = true))],
  ['--doctor', flag((o) => (h(o).doctor = true))],
  ['--export-tools', valued(applyExportTools)],
]);

/**
 * In a headless mode, takes the request options out of the target words (`node srv.js --method
 * tools/list`), up to a `--`, which is removed. Returns an error message for a bad value.
 */
export function takeTrailingOptions(o: CliOptions): string | undefined {
  const words = o.target;
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === '--') {
      kept.push(...words.slice(i + 1));
      break;
    }
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const name = eq > 0 ? word.slice(0, eq) : word;
    const spec = HEADLESS_OPTIONS.get(name);
    // The first word is the command itself, never an option of ours.
    if (i === 0 || !spec?.afterTarget) {
      kept.push(word);
      continue;
    }
    let value = '';
    if (spec.takesValue) {
      if (eq > 0) value = word.slice(eq + 1);
      else if (i + 1 < words.length) value = words[++i];
      else return `${name} needs a value.`;
    }
    const error = spec.apply(o, value, name);
    if (error) return error;
  }
  o.target = kept;
  return undefined;
}

/** What the headless options need of each other and of the target; undefined when they fit. */
export function checkHeadless(o: CliOptions): string | undefined {
  const x = o.headless;
  const mode = modeOf(x);
  const hasTarget = o.target.length > 0 || o.config !== undefined;
  if (mode === 'mock') {
    if (hasTarget) return `--mock answers from a recording and starts no server: drop the target (${o.target[0] ?? '--config'}).`;
    if (x.cli || x.smoke || x.verify !== undefined) return '--mock cannot be combined with --cli, --smoke or --verify: run the mock, then point another mcp-loupe at it.';
    if (x.mockNoAuth && x.mockPort === undefined) return '--mock-no-auth is for the HTTP mock (--mock-port N): over stdio, only the process that started the mock can talk to it.';
    return undefined;
  }
  if (x.mockPort !== undefined || x.mockNoAuth) return '--mock-port and --mock-no-auth are for --mock <trace.jsonl>.';
  if (x.doctor && (x.cli || x.smoke || x.verify !== undefined || x.exportTools !== undefined)) return '--doctor makes its own requests: run it without --cli, --smoke, --verify or --export-tools.';
  if (x.format === 'markdown' && !x.doctor) return '--format markdown is for --doctor; --cli prints pretty, json or text.';
  if (x.cli && !x.smoke && x.method === undefined) return `--cli needs --method (${CLI_METHODS.join(', ')}).`;
  if (x.method === 'tools/call' && x.toolName === undefined) return '--method tools/call needs --tool-name NAME.';
  if (x.method === 'resources/read' && x.uri === undefined) return '--method resources/read needs --uri URI.';
  if (x.method === 'prompts/get' && x.promptName === undefined) return '--method prompts/get needs --prompt-name NAME.';
  if (x.args !== undefined && x.toolArgs.length > 0) return '--args and --tool-arg cannot be combined: give the arguments one way.';
  if (x.junit !== undefined && !x.smoke && x.eval === undefined && x.test === undefined) return '--junit writes the report of --smoke, --test or --eval: add one of them.';
  if (x.allowWrites && !x.smoke) return '--allow-writes lets --smoke call the tools that may change data: add --smoke.';
  if (x.ignore.length > 0 && x.verify === undefined) return '--ignore is for --verify <trace.jsonl>.';
  for (const rule of x.ignore) {
    const path = parsePath(rule);
    if (!path.ok) return `--ignore: ${path.error}`;
  }
  if (x.filter !== undefined && !x.verbose) return '--filter chooses the frames --verbose prints: add --verbose.';
  if (x.updateLock && x.lock === undefined) return '--update-lock needs --lock FILE.';
  if (mode !== undefined && mode !== 'cli' && x.method !== undefined) return `--method is for --cli; --${mode} makes its own requests.`;
  // With --config and no --server, a file of one server will do (proxy/faces/cli/run.ts checks).
  if (mode !== undefined && o.servers.length > 1) return `--${mode} talks to one server: keep one --server NAME.`;
  return undefined;
}
