/**
 * The command line of `--eval FILE` (issue 27, docs/contract.md): run the eval file's cases against
 * the server with each `--model` (the file's models when none is given), `--repeats` times each, and
 * with `--junit FILE` write the JUnit report. A model is a word of lib/evals/models.ts, read here so
 * that a bad one is a usage error before any server starts; its key comes from the environment only.
 */
import { MODEL_WORD_HINT, parseModelWord } from '../../lib/evals/models.ts';
import type { HeadlessSpec } from './headless.ts';
import type { CliOptions } from './types.ts';

const h = (o: CliOptions) => o.headless;

function applyModel(o: CliOptions, value: string, f: string): string | undefined {
  if (value.trim() === '') return `${f} needs a model. ${MODEL_WORD_HINT}`;
  const read = parseModelWord(value.trim());
  if (!read.ok) return `${f}: ${read.error}`;
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
