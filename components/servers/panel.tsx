/**
 * The Servers panel (issue 9): every server of the workspace with its name, transport and status,
 * the `All servers` entry for the merged views, `Add server`, and per server connect / disconnect
 * / restart / edit / remove (remove asks first, inside the page). Arrow keys move between the
 * entries (one tab stop, roving tabindex); Enter or Space selects.
 */
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { SessionStatus } from '../../lib/wire/wire.ts';
import { Text } from '../ui/text.tsx';
import { Badge, buttonClass } from '../ui/ui.tsx';

export interface ServerEntry {
  id: string;
  name: string;
  /** `stdio`, `http`, `sse`. */
  transport: string;
  status: SessionStatus;
  /** Why it failed or stopped, in one sentence. */
  reason?: string;
  /** Listed, not started (the workspace file says so). */
  disabled?: boolean;
  /** A session Loupe watches (issue 13): a host's through the tap, a client's through the gateway. */
  relay?: { kind: 'tap' | 'gateway'; label?: string };
}

export interface ServersPanelProps {
  servers: readonly ServerEntry[];
  /** A server id, or `all` for the merged views. */
  selected?: string;
  allSelected: boolean;
  /** Actions need an open socket. */
  canAct: boolean;
  onSelect(id: string): void;
  onSelectAll(): void;
  onAdd(): void;
  onConnect(id: string): void;
  onDisconnect(id: string): void;
  onRestart(id: string): void;
  onEdit(id: string): void;
  onRemove(id: string): void;
  /** Show the server as text to copy (issue 9, export). */
  onExport?(id: string): void;
  /** More buttons for the header (`Save workspace`, `Import servers`). */
  headerActions?: ReactNode;
  /** How many ended gateway and tap sessions the proxy forgot (it keeps the last ones). */
  prunedSessions?: number;
}

const WORDS: Record<SessionStatus, string> = { connected: 'Connected', connecting: 'Connecting', disconnected: 'Disconnected', failed: 'Failed' };
const DOTS: Record<SessionStatus, string> = {
  connected: 'bg-emerald-500',
  connecting: 'bg-amber-400 animate-pulse',
  disconnected: 'bg-zinc-400',
  failed: 'bg-red-500',
};

/** The status words as the entry says them: `Failed: <reason>`, `Disconnected (disabled)`. */
export function statusText(server: Pick<ServerEntry, 'status' | 'reason' | 'disabled'>): string {
  const word = WORDS[server.status];
  if (server.disabled && server.status === 'disconnected') return `${word} (disabled)`;
  return server.reason && (server.status === 'failed' || server.status === 'disconnected') ? `${word}: ${server.reason}` : word;
}

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;
const entryClass = (on: boolean) =>
  `flex w-full min-w-0 items-center gap-2 rounded-md border px-2 py-1.5 text-left text-sm ${on ? 'border-sky-500 bg-sky-50 dark:border-sky-400 dark:bg-sky-950' : 'border-transparent hover:bg-zinc-50 dark:hover:bg-zinc-800'}`;

function Actions({ server, canAct, props }: { server: ServerEntry; canAct: boolean; props: ServersPanelProps }): ReactNode {
  const [confirming, setConfirming] = useState(false);
  const live = server.status === 'connected' || server.status === 'connecting';
  if (confirming) {
    return (
      <div role="group" aria-label={`Remove ${server.name}?`} className="flex flex-wrap items-center gap-1 pl-6 text-xs">
        <span>Remove {server.name}? Its process is stopped and its history forgotten.</span>
        <button type="button" className={small} disabled={!canAct} onClick={() => { setConfirming(false); props.onRemove(server.id); }}>Yes, remove {server.name}</button>
        <button type="button" className={small} onClick={() => setConfirming(false)}>Keep {server.name}</button>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap gap-1 pl-6">
      {live ? (
        <button type="button" className={small} disabled={!canAct} aria-label={`Disconnect ${server.name}`} onClick={() => props.onDisconnect(server.id)}>Disconnect</button>
      ) : (
        <button type="button" className={small} disabled={!canAct} aria-label={`Connect ${server.name}`} onClick={() => props.onConnect(server.id)}>{server.disabled ? 'Enable' : 'Connect'}</button>
      )}
      {!server.disabled && <button type="button" className={small} disabled={!canAct} aria-label={`Restart ${server.name}`} onClick={() => props.onRestart(server.id)}>Restart</button>}
      <button type="button" className={small} disabled={!canAct} aria-label={`Edit ${server.name}`} onClick={() => props.onEdit(server.id)}>Edit</button>
      <button type="button" className={small} disabled={!canAct} aria-label={`Remove ${server.name}`} onClick={() => setConfirming(true)}>Remove</button>
      {props.onExport && <button type="button" className={small} aria-label={`Export ${server.name}`} onClick={() => props.onExport?.(server.id)}>Export</button>}
    </div>
  );
}

/** What a server's entry shows: its status dot, its name, how it is reached and its status, and a relay's own label. */
function EntryWords({ server, text, label }: { server: ServerEntry; text: string; label?: string }): ReactNode {
  const relay = server.relay;
  return (
    <>
      <span aria-hidden="true" className={`inline-block size-2.5 shrink-0 rounded-full ${DOTS[server.status]}`} />
      <span className="min-w-0 flex-1">
        {/* The space keeps the visible words apart, so that they read as the label's (axe label-content-name-mismatch). */}
        <span className="block truncate font-medium"><Text>{server.name}</Text></span>{' '}
        <span className="block truncate text-xs text-zinc-600 dark:text-zinc-300">
          {relay && (
            <>
              <Badge tone="info" title={relay.kind === 'tap' ? 'A host’s session, watched through mcp-loupe --tap' : 'An MCP client’s session through Loupe’s gateway'}>{relay.kind}</Badge>{' · '}
            </>
          )}
          {server.transport} · <Text>{text}</Text>
        </span>
        {label && (
          <>
            {' '}
            <span className="block truncate text-xs"><Text>{label}</Text></span>
          </>
        )}
      </span>
    </>
  );
}

export function ServersPanel(props: ServersPanelProps): ReactNode {
  const { servers, selected, allSelected } = props;
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  // Index 0..n-1: the servers; n: All servers.
  const current = allSelected ? servers.length : Math.max(0, servers.findIndex((s) => s.id === selected));
  const [focus, setFocus] = useState<number>();
  const stop = focus !== undefined && focus <= servers.length ? focus : current;
  const move = (event: KeyboardEvent, at: number) => {
    const last = servers.length;
    const to = event.key === 'ArrowDown' ? Math.min(last, at + 1) : event.key === 'ArrowUp' ? Math.max(0, at - 1) : event.key === 'Home' ? 0 : event.key === 'End' ? last : undefined;
    if (to === undefined) return;
    event.preventDefault();
    setFocus(to);
    refs.current[to]?.focus();
  };
  return (
    <section aria-label="Servers" className="rounded-lg border border-zinc-200 bg-white p-3 shadow-sm dark:border-zinc-700 dark:bg-zinc-900">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-zinc-800 dark:text-zinc-100">Servers ({servers.length})</h2>
        <span className="flex flex-wrap justify-end gap-1">
          <button type="button" className={small} disabled={!props.canAct} onClick={props.onAdd}>Add server</button>
          {props.headerActions}
        </span>
      </div>
      <ul className="space-y-1">
        {servers.map((server, i) => {
          const text = statusText(server);
          const relay = server.relay;
          const label = relay?.label !== undefined && relay.label !== server.name ? relay.label : undefined;
          return (
            <li key={server.id} className="space-y-1">
              <button
                type="button"
                ref={(el) => { refs.current[i] = el; }}
                tabIndex={i === stop ? 0 : -1}
                aria-current={!allSelected && server.id === selected ? 'true' : undefined}
                aria-label={`${server.name} · ${relay ? `${relay.kind} · ` : ''}${server.transport} · ${text}${label ? ` · ${label}` : ''}`}
                className={entryClass(!allSelected && server.id === selected)}
                onKeyDown={(e) => move(e, i)}
                onFocus={() => setFocus(i)}
                onClick={() => props.onSelect(server.id)}
              >
                <EntryWords server={server} text={text} label={label} />
              </button>
              {!allSelected && server.id === selected && <Actions key={server.id} server={server} canAct={props.canAct} props={props} />}
            </li>
          );
        })}
        <li>
          <button
            type="button"
            ref={(el) => { refs.current[servers.length] = el; }}
            tabIndex={stop === servers.length ? 0 : -1}
            aria-current={allSelected ? 'true' : undefined}
            className={entryClass(allSelected)}
            onKeyDown={(e) => move(e, servers.length)}
            onFocus={() => setFocus(servers.length)}
            onClick={props.onSelectAll}
          >
            All servers
          </button>
        </li>
      </ul>
      {props.prunedSessions !== undefined && props.prunedSessions > 0 && (
        <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-300">
          {props.prunedSessions} ended session{props.prunedSessions === 1 ? '' : 's'} pruned: Loupe keeps the gateway and tap sessions that ended last, with their history.
        </p>
      )}
    </section>
  );
}
