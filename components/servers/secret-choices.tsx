/**
 * A `Secret` checkbox per env var (stdio) or header (HTTP) the form holds (issue 9): a marked
 * value never reaches the page again nor the workspace file; the proxy shows it as its reference
 * (`${input:NAME}`), and a reference sent back unchanged keeps the value the proxy holds.
 */
import type { ReactNode } from 'react';
import { parseEnvLines, parseHeaderLines } from '../../lib/config/command-line.ts';
import type { ConnectionFields } from '../connection/form-model.ts';

export interface Secrets {
  secretEnv: string[];
  secretHeaders: string[];
}

const REFERENCE = /^\$\{(input|env):[^}]+\}$/;

/** The names the form's env (or headers) text holds now, with whether each value is a reference. */
function namesOf(fields: ConnectionFields): { kind: 'env' | 'header'; names: { name: string; reference: boolean }[] } {
  const stdio = fields.transport === 'stdio';
  const parsed = stdio ? parseEnvLines(fields.env) : parseHeaderLines(fields.headers);
  const record = parsed.ok ? parsed.record : {};
  return { kind: stdio ? 'env' : 'header', names: Object.entries(record).map(([name, value]) => ({ name, reference: REFERENCE.test(value.trim()) })) };
}

export function SecretChoices({ fields, secrets, onChange }: { fields: ConnectionFields; secrets: Secrets; onChange(next: Secrets): void }): ReactNode {
  const { kind, names } = namesOf(fields);
  if (names.length === 0) return null;
  const marked = kind === 'env' ? secrets.secretEnv : secrets.secretHeaders;
  const toggle = (name: string, on: boolean) => {
    const next = on ? [...marked.filter((n) => n !== name), name] : marked.filter((n) => n !== name);
    onChange(kind === 'env' ? { ...secrets, secretEnv: next } : { ...secrets, secretHeaders: next });
  };
  return (
    <fieldset className="space-y-1 text-xs text-zinc-700 dark:text-zinc-300">
      <legend className="font-medium">Secret values (kept out of the page and the workspace file)</legend>
      {names.map(({ name, reference }) => (
        <label key={name} className="flex items-center gap-2">
          <input type="checkbox" checked={marked.includes(name)} onChange={(e) => toggle(name, e.target.checked)} aria-label={`Secret ${name}`} />
          <span className="font-mono">{name}</span>
          <span>Secret</span>
          {reference && <span className="text-zinc-500 dark:text-zinc-400">(a reference: sent back as written)</span>}
        </label>
      ))}
    </fieldset>
  );
}
