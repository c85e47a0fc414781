/**
 * `Open server.json` (issue 25, item 4): a dialog named `Registry entry` that takes an MCP Registry
 * `server.json` (a file or pasted text), shows its schema check with errors by JSON path, lets one
 * choose a package or a remote, asks for the values it declares, adds it as a server that connects
 * (`Add and connect`), and then lists where the live server differs from what the entry claims.
 * The validator (Ajv and the schemas) loads with the dialog.
 */
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { compareEntry, type LiveServer } from '../../lib/registry/compare.ts';
import type { RegistryEntry } from '../../lib/registry/entry.ts';
import { fieldsOf, optionsOf, planLaunch, type LaunchPlan, type RegistryOption } from '../../lib/registry/launch.ts';
import type { checkServerJson } from '../../lib/registry/validate.ts';
import { RegistryForm } from './registry-form.tsx';
import { Text } from '../ui/text.tsx';
import { buttonClass, inputClass, labelClass, Note, primaryButtonClass } from '../ui/ui.tsx';

export type ReadyPlan = Extract<LaunchPlan, { ok: true }>;

export interface RegistryEntryProps {
  canAdd: boolean;
  /** The server this dialog added, once the proxy made it: its status and what it says of itself. */
  live?: LiveServer & { status: string; name: string };
  onAdd(plan: ReadyPlan): void;
  onClose(): void;
}

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;
type Check = ReturnType<typeof checkServerJson>;

function Problems({ check }: { check: Extract<Check, { ok: true }> }): ReactNode {
  return (
    <section aria-label="Schema check" className="space-y-1 text-xs">
      <p className={check.problems.length === 0 ? 'text-emerald-700 dark:text-emerald-300' : 'text-red-700 dark:text-red-300'}>
        {check.problems.length === 0 ? `Valid against the server.json schema ${check.version}.` : `${check.problems.length} error${check.problems.length === 1 ? '' : 's'} against the server.json schema ${check.version}:`}
      </p>
      {check.schemaNote && <p className="text-amber-800 dark:text-amber-300"><Text>{check.schemaNote}</Text></p>}
      {check.problems.length > 0 && (
        <ul aria-label="Schema errors" className="list-inside list-disc font-mono text-red-700 dark:text-red-300">
          {check.problems.map((p) => <li key={`${p.path} ${p.message}`}><Text>{`${p.path || '/'}: ${p.message}`}</Text></li>)}
        </ul>
      )}
    </section>
  );
}

function Claims({ entry }: { entry: RegistryEntry }): ReactNode {
  const rows: [string, string | undefined][] = [['Name', entry.name], ['Title', entry.title], ['Version', entry.version], ['Description', entry.description], ['Website', entry.websiteUrl]];
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs text-zinc-700 dark:text-zinc-300">
      {rows.filter(([, v]) => v !== undefined).map(([k, v]) => [<dt key={`${k}-t`} className="font-medium">{k}</dt>, <dd key={`${k}-d`} className="break-all"><Text>{v}</Text></dd>])}
    </dl>
  );
}

function Choices({ options, chosen, onChoose }: { options: readonly RegistryOption[]; chosen: number; onChoose(n: number): void }): ReactNode {
  const name = useId();
  if (options.length === 0) return <Note tone="warn">The entry has no package or remote Loupe can read.</Note>;
  return (
    <div role="radiogroup" aria-label="Package or remote" className="space-y-1 text-xs">
      {options.map((o, i) => (
        <label key={o.label} className="flex items-start gap-2">
          <input type="radio" name={name} checked={chosen === i} onChange={() => onChoose(i)} aria-label={o.label} />
          <span><Text className="break-all font-mono">{o.label}</Text>{o.unsupported && <span className="block text-amber-800 dark:text-amber-300"><Text>{o.unsupported}</Text></span>}</span>
        </label>
      ))}
    </div>
  );
}

function Comparison({ entry, option, live }: { entry: RegistryEntry; option: RegistryOption; live: NonNullable<RegistryEntryProps['live']> }): ReactNode {
  const connected = live.status === 'connected';
  const rows = connected ? compareEntry(entry, option, live) : [];
  return (
    <section aria-label="Entry against the live server" className="space-y-1 text-xs">
      <p><Text className="font-medium">{live.name}</Text>: {live.status}{connected ? '' : ' (the comparison follows once it is connected)'}</p>
      {connected && (
        <ul aria-label="Differences from the entry" className="list-inside list-disc">
          {rows.map((r) => <li key={r.field} className={r.matches ? 'text-emerald-700 dark:text-emerald-300' : 'text-amber-800 dark:text-amber-300'}><Text>{r.text}</Text></li>)}
        </ul>
      )}
    </section>
  );
}

export function RegistryEntryDialog(props: RegistryEntryProps): ReactNode {
  const id = useId();
  const [check, setCheck] = useState<typeof checkServerJson>();
  const [text, setText] = useState('');
  const [fileError, setFileError] = useState<string>();
  const [chosen, setChosen] = useState(0);
  const [values, setValues] = useState<Record<string, string>>({});
  const [added, setAdded] = useState<{ entry: RegistryEntry; option: RegistryOption }>();
  useEffect(() => {
    let on = true;
    void import('../../lib/registry/validate.ts').then((m) => on && setCheck(() => m.checkServerJson));
    return () => { on = false; };
  }, []);
  const result = useMemo(() => (check && text.trim() !== '' ? check(text) : undefined), [check, text]);
  const entry = result?.ok ? result.entry : undefined;
  const options = useMemo(() => (entry ? optionsOf(entry) : []), [entry]);
  const option = options[Math.min(chosen, options.length - 1)] as RegistryOption | undefined;
  const fields = useMemo(() => (option ? fieldsOf(option) : []), [option]);
  const given = Object.fromEntries(fields.map((f) => [f.key, values[f.key] ?? f.default ?? '']));
  const plan = entry && option ? planLaunch(entry, option, given) : undefined;
  const pick = async (file: File | undefined) => {
    if (!file) return;
    try {
      setText(await file.text());
      setFileError(undefined);
    } catch (e) {
      setFileError(`${file.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const blocked = !plan ? 'Choose a package or a remote first.' : !plan.ok ? (plan.error ?? `Fill in first: ${plan.missing.join(', ')}.`) : undefined;
  const add = () => {
    if (!plan?.ok || !entry || !option) return;
    props.onAdd(plan);
    setAdded({ entry, option });
    // Secret values are the proxy's from now on: the dialog forgets them.
    setValues((all) => Object.fromEntries(Object.entries(all).filter(([k]) => !fields.some((f) => f.key === k && f.secret))));
  };
  return (
    <section role="dialog" aria-label="Registry entry" className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3 shadow-sm dark:border-zinc-700 dark:bg-zinc-900">
      <div className="flex items-center justify-between">
        <h2 className="text-sm font-semibold text-zinc-800 dark:text-zinc-100">Registry entry (server.json)</h2>
        <button type="button" className={small} onClick={props.onClose}>Close registry entry</button>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-700 dark:text-zinc-300">
        <label htmlFor={`${id}-file`} className="font-medium">server.json file</label>
        <input id={`${id}-file`} type="file" accept=".json,application/json" className="text-xs" onChange={(e) => void pick(e.target.files?.[0])} />
      </div>
      <div>
        <label htmlFor={`${id}-text`} className={labelClass}>server.json text</label>
        <textarea id={`${id}-text`} rows={6} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={text} placeholder='{"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json", "name": …}' onChange={(e) => setText(e.target.value)} />
      </div>
      {fileError && <p role="alert" className="text-xs text-red-700 dark:text-red-300"><Text>{fileError}</Text></p>}
      {!check && text !== '' && <p role="status" className="text-xs">Loading the schema…</p>}
      {result && !result.ok && <p role="alert" className="text-xs text-red-700 dark:text-red-300"><Text>{result.error}</Text></p>}
      {result?.ok && (
        <>
          <Problems check={result} />
          <Claims entry={result.entry} />
          <Choices options={options} chosen={Math.min(chosen, options.length - 1)} onChoose={(n) => { setChosen(n); setValues({}); }} />
          {option && !option.unsupported && <RegistryForm fields={fields} values={values} onChange={(k, v) => setValues((all) => ({ ...all, [k]: v }))} />}
          {plan?.ok && plan.notes.map((n) => <Note key={n} tone="warn"><Text>{n}</Text></Note>)}
          {plan?.ok && plan.config.kind === 'stdio' && <p className="break-all font-mono text-xs text-zinc-600 dark:text-zinc-300"><Text>{[plan.config.command, ...plan.config.args].join(' ')}</Text></p>}
          <div className="flex flex-wrap items-center gap-2">
            <button type="button" className={primaryButtonClass} disabled={!props.canAdd || blocked !== undefined} aria-describedby={blocked ? `${id}-blocked` : undefined} onClick={add}>Add and connect</button>
            {blocked && <span id={`${id}-blocked`} className="text-xs text-amber-800 dark:text-amber-300"><Text>{blocked}</Text></span>}
          </div>
        </>
      )}
      {added && props.live && <Comparison entry={added.entry} option={added.option} live={props.live} />}
    </section>
  );
}
