/**
 * A `--rules FILE` (issue 13, docs/rules.md). TO BE WRITTEN (helper: rules).
 */
import type { Rule } from './rules-types.ts';

export function readRulesFile(text: string): { ok: true; rules: Rule[] } | { ok: false; error: string } {
  void text;
  return { ok: false, error: 'not yet' };
}
