/**
 * `Import servers` (issue 9, item 5): paste a config file, one entry or a command line, pick a
 * file, or take a known host's config file (read-only); the preview shows the servers, the notes
 * (renames, ignored keys, placeholders) and errors in the CLI's words (`FILE: Server "X": why`).
 * Nothing changes until the import is confirmed.
 */
import { useId, useMemo, useState, type ReactNode } from 'react';
import type { WorkspaceServer } from '../../lib/workspace/workspace.ts';
import type { ConfigLocation } from '../../lib/wire/wire.ts';
import { previewImport } from './import-preview.ts';
import { Text } from '../ui/text.tsx';
import { Badge, buttonClass, inputClass, labelClass, Note, Panel, primaryButtonClass } from '../ui/ui.tsx';

export type LocationsState = { phase: 'idle' } | { phase: 'loading' } | { phase: 'done'; locations: ConfigLocation[] } | { phase: 'failed'; error: string };

export interface ImportServersProps {
  /** The workspace's servers now (names clash against these). */
  existing: readonly WorkspaceServer[];
  locations: LocationsState;
  canImport: boolean;
  onListLocations(): void;
  onImport(servers: WorkspaceServer[]): void;
  onClose(): void;
}

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

function describe(server: WorkspaceServer): string {
  const c = server.config;
  return c.kind === 'stdio' ? [c.command, ...c.args].join(' ') : `${c.url}${c.transport === 'auto' ? '' : ` (${c.transport})`}`;
}

function ServerPreview({ server }: { server: WorkspaceServer }): ReactNode {
  const names = server.config.kind === 'stdio' ? Object.keys(server.config.env) : Object.keys(server.config.headers);
  const secret = server.config.kind === 'stdio' ? server.secretEnv : server.secretHeaders;
  return (
    <li className="rounded border border-zinc-200 p-2 text-xs dark:border-zinc-700">
      <div className="flex flex-wrap items-center gap-1">
        <span className="font-medium"><Text>{server.name}</Text></span>
        <Badge>{server.config.kind === 'stdio' ? 'stdio' : server.config.transport === 'sse' ? 'sse' : 'http'}</Badge>
        {server.disabled && <Badge tone="warn">disabled: listed, not started</Badge>}
      </div>
      <p className="break-all font-mono"><Text>{describe(server)}</Text></p>
      {names.length > 0 && (
        <p>
          {server.config.kind === 'stdio' ? 'Environment' : 'Headers'}: <Text className="font-mono">{names.map((n) => (secret.includes(n) ? `${n} (secret)` : n)).join(', ')}</Text>
        </p>
      )}
    </li>
  );
}

function Locations({ state, onList, onUse }: { state: LocationsState; onList(): void; onUse(location: ConfigLocation): void }): ReactNode {
  if (state.phase === 'idle') return <button type="button" className={small} onClick={onList}>Show config files on this machine</button>;
  if (state.phase === 'loading') return <p role="status" className="text-xs">Looking for config files…</p>;
  if (state.phase === 'failed') return <p role="alert" className="text-xs text-red-700 dark:text-red-300"><Text>{state.error}</Text></p>;
  if (state.locations.length === 0) return <Note>No config file of Claude Desktop, Cursor, VS Code, Windsurf or Claude Code was found on this machine.</Note>;
  return (
    <ul aria-label="Config files on this machine" className="space-y-1 text-xs">
      {state.locations.map((l) => (
        <li key={l.path} className="flex flex-wrap items-center gap-2">
          <span className="font-medium"><Text>{l.app}</Text></span>
          <span className="break-all font-mono"><Text>{l.path}</Text></span>
          {l.error !== undefined ? <span className="text-red-700 dark:text-red-300"><Text>{l.error}</Text></span> : <span>{l.servers ?? 0} server{l.servers === 1 ? '' : 's'}</span>}
          {l.text !== undefined && <button type="button" className={small} aria-label={`Use ${l.app} ${l.path}`} onClick={() => onUse(l)}>Use</button>}
        </li>
      ))}
    </ul>
  );
}

export function ImportServers(props: ImportServersProps): ReactNode {
  const id = useId();
  const [text, setText] = useState('');
  // Where the text came from (a file name or path), for the error's first words; undefined: pasted.
  const [source, setSource] = useState<string>();
  const [fileError, setFileError] = useState<string>();
  const preview = useMemo(() => (text.trim() === '' ? undefined : previewImport(text, source, props.existing)), [text, source, props.existing]);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    try {
      setText(await file.text());
      setSource(file.name);
      setFileError(undefined);
    } catch (e) {
      setFileError(`${file.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const count = preview?.ok ? preview.value.servers.length : 0;
  return (
    <Panel label="Import servers" title="Import servers" actions={<button type="button" className={small} onClick={props.onClose}>Close</button>}>
      <div className="space-y-2">
        <div>
          <label htmlFor={`${id}-text`} className={labelClass}>Servers to import</label>
          <textarea id={`${id}-text`} rows={6} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={text} placeholder='{"mcpServers": {…}}, one entry, or a command line such as API_KEY=… npx -y some-server' onChange={(e) => { setText(e.target.value); setSource(undefined); }} />
        </div>
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <label htmlFor={`${id}-file`} className="font-medium">From a file</label>
          <input id={`${id}-file`} type="file" accept=".json,.jsonc,application/json" className="text-xs" onChange={(e) => void pick(e.target.files?.[0])} />
        </div>
        {fileError && <p role="alert" className="text-xs text-red-700 dark:text-red-300"><Text>{fileError}</Text></p>}
        <Locations state={props.locations} onList={props.onListLocations} onUse={(l) => { setText(l.text ?? ''); setSource(l.path); }} />
        {preview && !preview.ok && <p role="alert" className="text-xs text-red-700 dark:text-red-300"><Text>{preview.error}</Text></p>}
        {preview?.ok && (
          <section aria-label="Import preview" className="space-y-1">
            <ul className="space-y-1">{preview.value.servers.map((s) => <ServerPreview key={s.name} server={s} />)}</ul>
            {preview.value.notes.length > 0 && (
              <ul aria-label="Import notes" className="list-inside list-disc text-xs text-amber-800 dark:text-amber-300">
                {preview.value.notes.map((n, i) => <li key={i}><Text>{n}</Text></li>)}
              </ul>
            )}
          </section>
        )}
        <button type="button" className={primaryButtonClass} disabled={!props.canImport || count === 0} onClick={() => preview?.ok && props.onImport(preview.value.servers)}>
          {count === 0 ? 'Import' : `Import ${count} server${count === 1 ? '' : 's'}`}
        </button>
      </div>
    </Panel>
  );
}
