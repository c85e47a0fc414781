/**
 * The command lines of issue 27 (docs/contract.md), one module so that the CLI's start loads one file
 * for both (each module on the way to the first screen costs Node about a millisecond).
 *
 * `--test FILE`: run the collections of a collection file (lib/collections/) against the server,
 * `--collection NAME` (repeatable) to run only those, `--var NAME=VALUE` (repeatable) to give
 * variables (a string; `NAME:=JSON` for a number, a list …), and with `--junit FILE` write the JUnit
 * report. The file itself is read before the server starts (proxy/faces/cli/test.ts), so that a bad
 * one is exit 2 without a server run.
 *
 * `--eval FILE`: run the eval file's cases against the server with each `--model` (the file's models
 * when none is given), `--repeats` times each, and with `--junit FILE` write the JUnit report. A
 * model is a word of lib/evals/models.ts, read by the eval mode (proxy/faces/cli/eval.ts) before any
 * server starts, so that a bad one is a usage error without a server run and its reader is not on
 * the way to the UI's first screen; its key comes from the environment only.
 */
import type { HeadlessSpec } from './headless.ts';
import type { CliOptions } from './types.ts';

const h = (o: CliOptions) => o.headless;
/** The names `{{name}}` can use (lib/collections/variables.ts). */
const VARIABLE = /^[A-Za-z_][\w.-]*$/;

function applyVar(o: CliOptions, value: string, f: string): string | undefined {
  const eq = value.indexOf('=');
  const typed = eq > 0 && value[eq - 1] === ':';
  const name = eq > 0 ? value.slice(0, typed ? eq - 1 : eq) : '';
  if (!VARIABLE.test(name)) return `${f} expects NAME=VALUE (or NAME:=JSON), where NAME is letters, digits, _, - and . starting with a letter or _; got ${JSON.stringify(value)}.`;
  const text = value.slice(eq + 1);
  let parsed: unknown = text;
  if (typed) {
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return `${f} ${name}:= expects JSON, and ${JSON.stringify(text)} is not JSON (${(error as Error).message}).`;
    }
  }
  Object.defineProperty((h(o).vars ??= {}), name, { value: parsed, enumerable: true, writable: true, configurable: true });
  return undefined;
}

export const TEST_OPTIONS = new Map<string, HeadlessSpec>([
  ['--test', { takesValue: true, apply: (o, v, f) => (v === '' ? `${f} needs the collection file.` : void (h(o).test = v)) }],
  ['--collection', { takesValue: true, apply: (o, v, f) => (v === '' ? `${f} needs a collection's name.` : void (h(o).collections ??= []).push(v)) }],
  ['--var', { takesValue: true, apply: applyVar }],
]);

/** What --test needs of the other options; undefined when they fit. */
export function checkTest(o: CliOptions): string | undefined {
  const x = o.headless;
  if (x.test === undefined) {
    if (x.collections !== undefined) return '--collection picks collections of the --test FILE: add --test.';
    if (x.vars !== undefined) return '--var gives variables to the collections of --test FILE: add --test.';
    return undefined;
  }
  const others = [x.cli && '--cli', x.smoke && '--smoke', x.verify !== undefined && '--verify', x.lock !== undefined && '--lock', x.doctor && '--doctor', x.exportTools !== undefined && '--export-tools', x.mock !== undefined && '--mock', x.eval !== undefined && '--eval'];
  const named = others.filter((w): w is string => typeof w === 'string');
  if (named.length > 0) return `--test runs the collections' own calls: run it without ${named.join(', ')}.`;
  return undefined;
}


function applyModel(o: CliOptions, value: string, f: string): string | undefined {
  if (value.trim() === '') return `${f} needs a model: PROVIDER:MODEL, for example anthropic:claude-sonnet-4-5 or openai-compatible:http://127.0.0.1:11434/v1#llama3.1.`;
  (h(o).models ??= []).push(value.trim());
  return undefined;
}

function applyRepeats(o: CliOptions, value: string, f: string): string | undefined {
  const n = /^\d{1,3}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= 100)) return `${f} expects a number of runs from 1 to 100, got ${JSON.stringify(value)}.`;
  h(o).repeats = n;
  return undefined;
}

export const EVAL_OPTIONS = new Map<string, HeadlessSpec>([
  ['--eval', { takesValue: true, apply: (o, v, f) => (v === '' ? `${f} needs the eval file.` : void (h(o).eval = v)) }],
  ['--model', { takesValue: true, apply: applyModel }],
  ['--repeats', { takesValue: true, apply: applyRepeats }],
]);

/** What --eval needs of the other options; undefined when they fit. */
export function checkEvals(o: CliOptions): string | undefined {
  const x = o.headless;
  if (x.eval === undefined) {
    if (x.models !== undefined) return '--model names a model for --eval FILE: add --eval.';
    if (x.repeats !== undefined) return '--repeats is for --eval FILE.';
    return undefined;
  }
  const others = [x.cli && '--cli', x.smoke && '--smoke', x.verify !== undefined && '--verify', x.lock !== undefined && '--lock', x.doctor && '--doctor', x.exportTools !== undefined && '--export-tools', x.mock !== undefined && '--mock'];
  const named = others.filter((w): w is string => typeof w === 'string');
  if (named.length > 0) return `--eval asks models to use the server's tools: run it without ${named.join(', ')}.`;
  return undefined;
}
