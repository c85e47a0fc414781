/** The connection panel: the session's status, its failure (if any) and the target form. */
import type { ReactNode } from 'react';
import type { ServerConfig } from '../lib/server-config-types.ts';
import type { LoupeError, SessionStatus } from '../lib/wire.ts';
import type { ClientCapabilityChoice } from '../lib/wire.ts';
import { ConnectionForm, type ClientOptions } from './connection-form.tsx';
import { SessionError } from './session-error.tsx';
import { Panel } from './ui.tsx';

export interface SessionChoice {
  id: string;
  label: string;
}

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
  onConnect(config: ServerConfig, client: ClientOptions): void;
  /** Prefill of the client capability choice and answer timeout (seconds) for the next connect. */
  clientCapabilities?: ClientCapabilityChoice;
  timeoutSeconds?: number;
  onDisconnect(): void;
  sessions: readonly SessionChoice[];
  currentSession?: string;
  onSelectSession(id: string): void;
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

function SessionPicker({ sessions, current, onSelect }: { sessions: readonly SessionChoice[]; current?: string; onSelect(id: string): void }): ReactNode {
  if (sessions.length < 2) return null;
  return (
    <label className="flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-300">
      Session
      <select className="rounded border border-zinc-300 bg-white px-1 py-0.5 dark:border-zinc-600 dark:bg-zinc-900" value={current} onChange={(e) => onSelect(e.target.value)}>
        {sessions.map((s) => (
          <option key={s.id} value={s.id}>{s.label}</option>
        ))}
      </select>
    </label>
  );
}

export function ConnectionPanel(props: ConnectionPanelProps): ReactNode {
  const { word, dot } = statusWord(props.status, props.synced);
  return (
    <Panel title="Connection" actions={<SessionPicker sessions={props.sessions} current={props.currentSession} onSelect={props.onSelectSession} />}>
      <div role="status" className="mb-3 flex items-center gap-2 text-sm">
        <span aria-hidden="true" className={`inline-block size-2.5 rounded-full ${dot}`} />
        <span className="font-semibold">{word}</span>
        {props.statusDetail && <span className="text-zinc-500 dark:text-zinc-400">{` · ${props.statusDetail}`}</span>}
      </div>
      {(props.status === 'failed' || props.status === 'disconnected') && props.error && (
        <div className="mb-3">
          <SessionError error={props.error} />
        </div>
      )}
      <ConnectionForm
        key={props.formKey}
        config={props.config}
        clientCapabilities={props.clientCapabilities}
        timeoutSeconds={props.timeoutSeconds}
        canConnect={props.canConnect}
        canDisconnect={props.canDisconnect}
        onConnect={props.onConnect}
        onDisconnect={props.onDisconnect}
      />
    </Panel>
  );
}
