'use client';
/**
 * The workspace file's side of the Servers panel (issue 9, items 4 and 5): `Save workspace`,
 * `Import servers` and the per-server `Export`, wired to the proxy (workspace-requests.ts). The
 * servers come from the proxy's SessionInfos, whose configs hold secrets as references only.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { ExportServer } from '@/components/servers/export-server.tsx';
import { ImportServers, type LocationsState } from '@/components/servers/import-servers.tsx';
import { buttonClass } from '@/components/ui/ui.tsx';
import { WorkspaceSave, type SaveState } from '@/components/servers/workspace-save.tsx';
import type { SessionInfo } from '../../lib/wire/wire.ts';
import type { WorkspaceServer } from '../../lib/workspace/workspace.ts';
import { useClientSettings, useLoupeSelector, useServices } from '../_hooks/use-loupe.ts';
import { importServers, listConfigLocations, saveWorkspace } from '../_stores/workspace-requests.ts';
import { RegistryPanel } from './registry.tsx';

/** A session as a workspace server (what export and the import's name clashes need). */
export function workspaceServerOf(session: SessionInfo): WorkspaceServer {
  const name = session.name || session.config.name || 'server';
  return {
    name,
    config: { ...session.config, name },
    disabled: session.disabled ?? false,
    secretEnv: session.secretEnv ?? [],
    secretHeaders: session.secretHeaders ?? [],
    extras: session.clientCapabilities ? { clientCapabilities: session.clientCapabilities } : {},
  };
}

type Open = { what: 'save' } | { what: 'import' } | { what: 'registry' } | { what: 'export'; id: string } | undefined;

export interface WorkspaceActions {
  /** `Save workspace`, `Import servers` and `Open server.json`, for the Servers panel's header. */
  buttons: ReactNode;
  /** Open the export of one server (the selected server's `Export`). */
  onExport(id: string): void;
  /** The open form, under the Servers panel. */
  panel: ReactNode;
}

function useSave(): { state: SaveState; save(path: string | undefined, overwrite: boolean): void; reset(): void } {
  const { app } = useServices();
  const [state, setState] = useState<SaveState>({ phase: 'idle' });
  const save = (path: string | undefined, overwrite: boolean) => {
    setState({ phase: 'saving' });
    void saveWorkspace(app, path, overwrite).then((outcome) => {
      if (outcome.ok) setState({ phase: 'saved', path: outcome.path });
      else if ('conflict' in outcome) setState({ phase: 'conflict', ...outcome.conflict });
      else setState({ phase: 'failed', error: outcome.error });
    });
  };
  return { state, save, reset: () => setState({ phase: 'idle' }) };
}

function useLocations(): { state: LocationsState; list(): void } {
  const { app } = useServices();
  const [state, setState] = useState<LocationsState>({ phase: 'idle' });
  const list = () => {
    setState({ phase: 'loading' });
    void listConfigLocations(app).then((outcome) => setState(outcome.ok ? { phase: 'done', locations: outcome.locations } : { phase: 'failed', error: outcome.error }));
  };
  return { state, list };
}

/** The import form, wired: the servers of the workspace to clash against, the host files, add-server. */
function ImportPanel({ live, onClose }: { live: boolean; onClose(): void }): ReactNode {
  const { app } = useServices();
  const settings = useClientSettings();
  const sessions = useLoupeSelector((s) => s.sessions);
  const order = useLoupeSelector((s) => s.order);
  const locations = useLocations();
  const existing = useMemo(() => order.flatMap((id) => (sessions[id] ? [workspaceServerOf(sessions[id])] : [])), [order, sessions]);
  return (
    <ImportServers
      existing={existing}
      locations={locations.state}
      canImport={live}
      onListLocations={locations.list}
      onClose={onClose}
      onImport={(servers) => {
        importServers(app, servers, { clientCapabilities: settings.choice, roots: [...settings.roots] });
        onClose();
      }}
    />
  );
}

export function useWorkspaceActions(): WorkspaceActions {
  const sessions = useLoupeSelector((s) => s.sessions);
  const workspace = useLoupeSelector((s) => s.workspace);
  const live = useLoupeSelector((s) => s.socket.phase === 'open' && s.synced);
  const [open, setOpen] = useState<Open>();
  const save = useSave();
  const toggle = (what: 'save' | 'import' | 'registry') => {
    save.reset();
    setOpen((now) => (now?.what === what ? undefined : { what }));
  };
  const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;
  const buttons = (
    <>
      <button type="button" className={small} disabled={!live} aria-expanded={open?.what === 'save'} onClick={() => toggle('save')}>Save workspace</button>
      <button type="button" className={small} disabled={!live} aria-expanded={open?.what === 'import'} onClick={() => toggle('import')}>Import servers</button>
      <button type="button" className={small} disabled={!live} aria-expanded={open?.what === 'registry'} onClick={() => toggle('registry')}>Open server.json</button>
    </>
  );
  const exported = open?.what === 'export' ? sessions[open.id] : undefined;
  const close = () => setOpen(undefined);
  let panel: ReactNode = null;
  if (open?.what === 'save') panel = <WorkspaceSave currentPath={workspace?.path} state={save.state} canSave={live} onSave={save.save} onClose={close} />;
  if (open?.what === 'import') panel = <ImportPanel live={live} onClose={close} />;
  if (open?.what === 'registry') panel = <RegistryPanel live={live} onClose={close} />;
  if (exported) panel = <ExportServer key={exported.id} server={workspaceServerOf(exported)} inputs={workspace?.inputsNeeded ?? []} onClose={close} />;
  return { buttons, onExport: (id) => setOpen({ what: 'export', id }), panel };
}
