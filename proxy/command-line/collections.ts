/**
 * The command line of `--test FILE` (issue 27, docs/contract.md): run the collections of a collection
 * file (lib/collections/) against the server, `--collection NAME` (repeatable) to run only those,
 * `--var NAME=VALUE` (repeatable) to give variables (a string; `NAME:=JSON` for a number, a list …),
 * and with `--junit FILE` write the JUnit report. The file itself is read before the server starts
 * (proxy/faces/cli/test.ts), so that a bad one is exit 2 without a server run.
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
