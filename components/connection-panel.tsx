/** The connection panel: the session's status, its failure (if any) and the target form. */
import type { ReactNode } from 'react';
import type { ServerConfig } from '../lib/server-config-types.ts';
import type { LoupeError, SessionStatus } from '../lib/wire.ts';
import type { ClientCapabilityChoice } from '../lib/wire.ts';
import { ConnectionForm, type ClientOptions, type Secrets } from './connection-form.tsx';
import { SessionError } from './session-error.tsx';
import { buttonClass, Note, Panel } from './ui.tsx';
import { useNow } from './use-now.ts';

export interface ConnectionPanelProps {
  /** The shown session's status; undefined while Loupe has not told us (or there is none). */
  status?: SessionStatus;
  /** Whether the tab has heard from Loupe yet. */
  synced: boolean;
  /** Extra facts after the status word, e.g. "stdio · pid 4242". */
  statusDetail?: string;
  error?: LoupeError;
  config?: ServerConfig;
  /** Changes when the form should be refilled from `config`. */
  formKey: string;
  canConnect: boolean;
  canDisconnect: boolean;
  onConnect(config: ServerConfig, client: ClientOptions, secrets: Secrets): void;
  /** The env / header names marked secret in this session. */
  secrets?: Secrets;
  /** Connect the failed session again with its own config and choices. */
  onReconnect?: () => void;
  /** Prefill of the client capability choice and answer timeout (seconds) for the next connect. */
  clientCapabilities?: ClientCapabilityChoice;
  timeoutSeconds?: number;
  /** While connecting: when it started (ms since the epoch) and how long `initialize` may take. */
  connecting?: { since: number; timeoutMs?: number };
  /** Prefill of the Connect timeout field (milliseconds). */
  connectTimeoutMs?: number;
  /** Stops a connect in progress (the server process is killed at once). */
  onCancel(): void;
  onDisconnect(): void;
}

const WORDS: Record<SessionStatus, string> = {
  connected: 'Connected',
  connecting: 'Connecting…',
  disconnected: 'Disconnected',
  failed: 'Failed',
};

const DOTS: Record<SessionStatus, string> = {
  connected: 'bg-emerald-500',
  connecting: 'bg-amber-400 animate-pulse',
  disconnected: 'bg-zinc-400',
  failed: 'bg-red-500',
};

function statusWord(status: SessionStatus | undefined, synced: boolean): { word: string; dot: string } {
  if (status) return { word: WORDS[status], dot: DOTS[status] };
  return synced ? { word: 'Disconnected — no server yet', dot: DOTS.disconnected } : { word: 'Connecting to Loupe…', dot: DOTS.connecting };
}

const seconds = (ms: number): string => String(Math.round(ms / 100) / 10);

/** The ticking time since the connect began, the deadline, and `Cancel` (docs/contract.md). */
function ConnectingProgress({ since, timeoutMs, onCancel }: { since: number; timeoutMs?: number; onCancel(): void }): ReactNode {
  const now = useNow(250);
  const elapsed = Math.max(0, Math.floor((now - since) / 1000));
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2 text-sm text-zinc-600 dark:text-zinc-300">
      {/* Not inside role=status: a live region re-read every second would drown a screen reader. */}
      <span data-testid="connect-elapsed">
        Waiting for <span className="font-mono">initialize</span>: {elapsed} s
        {timeoutMs !== undefined && ` (Loupe gives up after ${seconds(timeoutMs)} s)`}
      </span>
      <button type="button" className={buttonClass} onClick={onCancel}>Cancel</button>
    </div>
  );
}

function StatusError({ status, error, onReconnect }: { status?: SessionStatus; error?: LoupeError; onReconnect?: () => void }): ReactNode {
  if (!error || (status !== 'failed' && status !== 'disconnected')) return null;
  // A cancel is the user's own doing: a note, not a failure.
  if (error.code === 'CANCELLED') return <div className="mb-3"><Note>{error.message}</Note></div>;
  return (
    <div className="mb-3 space-y-2">
      <SessionError error={error} />
      {/* The same server, the same choices, a new connection: what a dropped stream or a dead child needs. */}
      {status === 'failed' && onReconnect && <button type="button" className={buttonClass} onClick={onReconnect}>Reconnect</button>}
    </div>
  );
}

export function ConnectionPanel(props: ConnectionPanelProps): ReactNode {
  const { word, dot } = statusWord(props.status, props.synced);
  return (
    <Panel title="Connection" label="Connection">
      <div role="status" className="mb-3 flex items-center gap-2 text-sm">
        <span aria-hidden="true" className={`inline-block size-2.5 rounded-full ${dot}`} />
        <span className="font-semibold">{word}</span>
        {props.statusDetail && <span className="text-zinc-500 dark:text-zinc-400">{` · ${props.statusDetail}`}</span>}
      </div>
      {props.status === 'connecting' && props.connecting && <ConnectingProgress since={props.connecting.since} timeoutMs={props.connecting.timeoutMs} onCancel={props.onCancel} />}
      <StatusError status={props.status} error={props.error} onReconnect={props.canConnect ? props.onReconnect : undefined} />
      <ConnectionForm
        key={props.formKey}
        config={props.config}
        clientCapabilities={props.clientCapabilities}
        timeoutSeconds={props.timeoutSeconds}
        connectTimeoutMs={props.connectTimeoutMs}
        canConnect={props.canConnect}
        canDisconnect={props.canDisconnect}
        onConnect={props.onConnect}
        secrets={props.secrets}
        onDisconnect={props.onDisconnect}
      />
    </Panel>
  );
}
