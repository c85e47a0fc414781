/** The target form: transport, then command/args/env/cwd (stdio) or URL/headers (HTTP). */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { ServerConfig } from '../lib/server-config-types.ts';
import { configFromFields, fieldsFromConfig, type ConnectionFields, type TransportChoice } from './connection-form-model.ts';
import { buttonClass, inputClass, labelClass, primaryButtonClass } from './ui.tsx';

export interface ConnectionFormProps {
  /** Prefill (the current session's config). Remount the form (key) to reset it. */
  config?: ServerConfig;
  canConnect: boolean;
  canDisconnect: boolean;
  onConnect(config: ServerConfig): void;
  onDisconnect(): void;
}

function Field({ label, children, id }: { label: string; id: string; children: ReactNode }): ReactNode {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>{label}</label>
      {children}
    </div>
  );
}

type Setter = (patch: Partial<ConnectionFields>) => void;

function StdioFields({ fields, set, id }: { fields: ConnectionFields; set: Setter; id: string }): ReactNode {
  return (
    <>
      <Field label="Command" id={`${id}-command`}>
        <input id={`${id}-command`} className={`${inputClass} font-mono`} value={fields.command} spellCheck={false} autoComplete="off" placeholder="npx" onChange={(e) => set({ command: e.target.value })} />
      </Field>
      <Field label="Arguments" id={`${id}-args`}>
        <input id={`${id}-args`} className={`${inputClass} font-mono`} value={fields.args} spellCheck={false} autoComplete="off" placeholder={'-y @modelcontextprotocol/server-everything'} onChange={(e) => set({ args: e.target.value })} />
      </Field>
      <Field label="Environment" id={`${id}-env`}>
        <textarea id={`${id}-env`} rows={2} className={`${inputClass} font-mono`} value={fields.env} spellCheck={false} placeholder="KEY=VALUE, one per line" onChange={(e) => set({ env: e.target.value })} />
      </Field>
      <Field label="Working directory" id={`${id}-cwd`}>
        <input id={`${id}-cwd`} className={`${inputClass} font-mono`} value={fields.cwd} spellCheck={false} autoComplete="off" placeholder="(Loupe's own)" onChange={(e) => set({ cwd: e.target.value })} />
      </Field>
    </>
  );
}

function HttpFields({ fields, set, id }: { fields: ConnectionFields; set: Setter; id: string }): ReactNode {
  return (
    <>
      <Field label="URL" id={`${id}-url`}>
        <input id={`${id}-url`} type="url" className={`${inputClass} font-mono`} value={fields.url} spellCheck={false} autoComplete="off" placeholder="http://localhost:3001/mcp" onChange={(e) => set({ url: e.target.value })} />
      </Field>
      <Field label="Headers" id={`${id}-headers`}>
        <textarea id={`${id}-headers`} rows={2} className={`${inputClass} font-mono`} value={fields.headers} spellCheck={false} placeholder="Name: value, one per line" onChange={(e) => set({ headers: e.target.value })} />
      </Field>
    </>
  );
}

export function ConnectionForm({ config, canConnect, canDisconnect, onConnect, onDisconnect }: ConnectionFormProps): ReactNode {
  const id = useId();
  const [fields, setFields] = useState(() => fieldsFromConfig(config));
  const [error, setError] = useState<string>();
  const set: Setter = (patch) => {
    setFields((old) => ({ ...old, ...patch }));
    setError(undefined);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = configFromFields(fields, config);
    if (result.ok) onConnect(result.config);
    else setError(result.error);
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-2">
      <Field label="Transport" id={`${id}-transport`}>
        <select id={`${id}-transport`} className={inputClass} value={fields.transport} onChange={(e) => set({ transport: e.target.value as TransportChoice })}>
          <option value="stdio">stdio</option>
          <option value="http">Streamable HTTP</option>
          <option value="sse">SSE</option>
        </select>
      </Field>
      {fields.transport === 'stdio' ? <StdioFields fields={fields} set={set} id={id} /> : <HttpFields fields={fields} set={set} id={id} />}
      <div aria-live="polite" className="text-sm text-red-700 dark:text-red-300">{error}</div>
      <div className="flex gap-2">
        <button type="submit" className={primaryButtonClass} disabled={!canConnect}>Connect</button>
        <button type="button" className={buttonClass} disabled={!canDisconnect} onClick={onDisconnect}>Disconnect</button>
      </div>
    </form>
  );
}
