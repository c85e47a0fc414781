/** The target form: transport, then command/args/env/cwd (stdio) or URL/headers (HTTP), and the protocol generation. */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { DEFAULT_CHOICE } from '../../lib/client/capabilities.ts';
import type { ProtocolChoice, ServerConfig } from '../../lib/model/server-config.ts';
import type { ClientCapabilityChoice } from '../../lib/wire/wire.ts';
import { CapabilityFields } from './client-capabilities.tsx';
import { configFromFields, connectTimeoutFromText, connectTimeoutText, fieldsFromConfig, PROTOCOL_OPTIONS, type ConnectionFields, type TransportChoice } from './form-model.ts';
import { SecretChoices, type Secrets } from '../servers/secret-choices.tsx';
import { buttonClass, inputClass, labelClass, primaryButtonClass } from '../ui/ui.tsx';

export type { Secrets } from '../servers/secret-choices.tsx';

/** Loupe's client side of a connection: what it declares, and how long server requests may wait. */
export interface ClientOptions {
  clientCapabilities: ClientCapabilityChoice;
  serverRequestTimeoutMs?: number;
  /** How long `initialize` may take (absent: the session's current value). */
  connectTimeoutMs?: number;
}

export interface ConnectionFormProps {
  /** Prefill (the current session's config). Remount the form (key) to reset it. */
  config?: ServerConfig;
  /** Prefill of the client capabilities (the current session's, else the last used). */
  clientCapabilities?: ClientCapabilityChoice;
  /** Prefill of the answer timeout, in seconds. */
  timeoutSeconds?: number;
  /** Prefill of the Connect timeout (the session's, in milliseconds). */
  connectTimeoutMs?: number;
  canConnect: boolean;
  canDisconnect: boolean;
  /** `secrets`: the env / header names marked secret (issue 9): the proxy keeps their values out of the page and the workspace file. */
  onConnect(config: ServerConfig, client: ClientOptions, secrets: Secrets): void;
  /** Absent: no Disconnect button (the Add server form). */
  onDisconnect?: () => void;
  /** The submit button's words (default `Connect`). */
  submitLabel?: string;
  /** Prefill of the Secret marks. */
  secrets?: Secrets;
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

/**
 * Which generation to speak (issue 12). A choice, not a guess by default: the SDK v2 docs warn
 * debugging tools against negotiating silently, so Auto is there but says what it concluded.
 */
function ProtocolField({ id, value, onChange }: { id: string; value: ProtocolChoice; onChange(value: ProtocolChoice): void }): ReactNode {
  const hint = PROTOCOL_OPTIONS.find((o) => o.value === value)?.hint;
  return (
    <Field label="Protocol" id={`${id}-protocol`}>
      <select id={`${id}-protocol`} aria-describedby={`${id}-protocol-hint`} className={inputClass} value={value} onChange={(e) => onChange(e.target.value as ProtocolChoice)}>
        {PROTOCOL_OPTIONS.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
      <p id={`${id}-protocol-hint`} className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">{hint}</p>
    </Field>
  );
}

/** The answer timeout as typed → milliseconds (undefined: the proxy's default), or an error. */
function timeoutMs(text: string): { ok: true; ms?: number } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: true };
  const seconds = Number(text);
  return Number.isFinite(seconds) && seconds > 0 ? { ok: true, ms: Math.round(seconds * 1000) } : { ok: false, error: 'The answer timeout must be a positive number of seconds' };
}

function ConnectTimeoutField({ id, value, onChange }: { id: string; value: string; onChange(text: string): void }): ReactNode {
  return (
    <Field label="Connect timeout (seconds)" id={`${id}-connect-timeout`}>
      <input id={`${id}-connect-timeout`} type="number" min={0.1} step="any" inputMode="decimal" className={inputClass} value={value} placeholder="30 (Loupe's default)" onChange={(e) => onChange(e.target.value)} />
    </Field>
  );
}

export function ConnectionForm({ config, clientCapabilities, timeoutSeconds, connectTimeoutMs, canConnect, canDisconnect, onConnect, onDisconnect, submitLabel = 'Connect', secrets: secretsPrefill }: ConnectionFormProps): ReactNode {
  const id = useId();
  const [fields, setFields] = useState(() => fieldsFromConfig(config));
  const [secrets, setSecrets] = useState<Secrets>(() => secretsPrefill ?? { secretEnv: [], secretHeaders: [] });
  const [choice, setChoice] = useState(clientCapabilities ?? DEFAULT_CHOICE);
  const [timeout, setTimeoutText] = useState(timeoutSeconds === undefined ? '' : String(timeoutSeconds));
  const [connectTimeout, setConnectTimeout] = useState(() => connectTimeoutText(connectTimeoutMs));
  const [error, setError] = useState<string>();
  const set: Setter = (patch) => {
    setFields((old) => ({ ...old, ...patch }));
    setError(undefined);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = configFromFields(fields, config);
    const wait = timeoutMs(timeout);
    const init = connectTimeoutFromText(connectTimeout);
    if (!result.ok) setError(result.error);
    else if (!wait.ok) setError(wait.error);
    else if (!init.ok) setError(init.error);
    else {
      const config = result.config;
      const names = config.kind === 'stdio' ? Object.keys(config.env) : Object.keys(config.headers);
      const kept = { secretEnv: secrets.secretEnv.filter((n) => config.kind === 'stdio' && names.includes(n)), secretHeaders: secrets.secretHeaders.filter((n) => config.kind === 'http' && names.includes(n)) };
      onConnect(config, {
        clientCapabilities: choice,
        ...(wait.ms !== undefined ? { serverRequestTimeoutMs: wait.ms } : {}),
        ...(init.ms !== undefined ? { connectTimeoutMs: init.ms } : {}),
      }, kept);
    }
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
      <ProtocolField id={id} value={fields.protocol} onChange={(protocol) => set({ protocol })} />
      <SecretChoices fields={fields} secrets={secrets} onChange={setSecrets} />
      <ConnectTimeoutField id={id} value={connectTimeout} onChange={(text) => { setConnectTimeout(text); setError(undefined); }} />
      <CapabilityFields choice={choice} timeout={timeout} onChoice={(c) => { setChoice(c); setError(undefined); }} onTimeout={(t) => { setTimeoutText(t); setError(undefined); }} />
      <div aria-live="polite" className="text-sm text-red-700 dark:text-red-300">{error}</div>
      <div className="flex gap-2">
        <button type="submit" className={primaryButtonClass} disabled={!canConnect}>{submitLabel}</button>
        {onDisconnect && <button type="button" className={buttonClass} disabled={!canDisconnect} onClick={onDisconnect}>Disconnect</button>}
      </div>
    </form>
  );
}
