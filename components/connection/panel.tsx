/** The connection panel: the session's status, the protocol it speaks, its failure (if any) and the target form. */
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { ServerConfig } from '../../lib/model/server-config.ts';
import type { LoupeError, SessionStatus } from '../../lib/wire/wire.ts';
import type { ClientCapabilityChoice } from '../../lib/wire/wire.ts';
import type { OAuthState } from '../../lib/wire/oauth.ts';
import { ConnectionForm, type ClientOptions, type Secrets } from './form.tsx';
import { hasProtocolInfo, ProtocolInfo, type ProtocolInfoProps } from './protocol-info.tsx';
import { SessionError } from './session-error.tsx';
import { ConnectionSummary } from './summary.tsx';
import { buttonClass, Note, Panel } from '../ui/ui.tsx';
import { useNow } from '../ui/use-now.ts';

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
  /**
   * While connecting: when it started (ms since the epoch), how long it may take, and what Loupe
   * waits for (`initialize`, or `server/discover` for 2026-07-28 and Auto).
   */
  connecting?: { since: number; timeoutMs?: number; waitingFor?: string };
  /** The session's protocol generation and Loupe's verdict on it (issue 12). */
  protocol?: ProtocolInfoProps['session'];
  /** Prefill of the Connect timeout field (milliseconds). */
  connectTimeoutMs?: number;
  /** Signing in with OAuth (issue 11): while the authorization page waits for the user, its link. */
  auth?: OAuthState;
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
function ConnectingProgress({ since, timeoutMs, waitingFor = 'initialize', onCancel }: { since: number; timeoutMs?: number; waitingFor?: string; onCancel(): void }): ReactNode {
  const now = useNow(250);
  const elapsed = Math.max(0, Math.floor((now - since) / 1000));
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2 text-sm text-zinc-600 dark:text-zinc-300">
      {/* Not inside role=status: a live region re-read every second would drown a screen reader. */}
      <span data-testid="connect-elapsed">
        Waiting for <span className="font-mono">{waitingFor}</span>: {elapsed} s
        {timeoutMs !== undefined && ` (Loupe gives up after ${seconds(timeoutMs)} s)`}
      </span>
      <button type="button" className={buttonClass} onClick={onCancel}>Cancel</button>
    </div>
  );
}

function hostOf(url: string | undefined): string {
  try {
    return url ? new URL(url).host : 'the authorization server';
  } catch {
    return 'the authorization server';
  }
}

/**
 * While connecting to a server behind OAuth: the sign-in the user must finish. The page is
 * opened from a link the user clicks (a popup opened without a click would be blocked), in a new
 * tab; Loupe's `/oauth/callback` receives the code and the connect goes on by itself.
 */
function SignIn({ auth, onCancel }: { auth: OAuthState; onCancel(): void }): ReactNode {
  const where = hostOf(auth.authorizationServer ?? auth.authorizationUrl);
  if (auth.phase === 'working') {
    return (
      <div className="mb-3 flex flex-wrap items-center gap-2 text-sm text-zinc-600 dark:text-zinc-300">
        <span>Signing in at <span className="font-mono">{where}</span>…</span>
        <button type="button" className={buttonClass} onClick={onCancel}>Cancel</button>
      </div>
    );
  }
  return (
    <div role="region" aria-label="Sign in" className="mb-3 space-y-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-100">
      <p>This server needs you to sign in at <span className="font-mono">{where}</span>. Loupe continues by itself once you have.</p>
      <div className="flex flex-wrap items-center gap-2">
        {auth.authorizationUrl && (
          <a href={auth.authorizationUrl} target="_blank" rel="noopener noreferrer" className={buttonClass}>
            Open sign-in page
          </a>
        )}
        <button type="button" className={buttonClass} onClick={onCancel}>Cancel</button>
      </div>
    </div>
  );
}

/** One line on a signed-in session: who, which scopes, until when (never a token). */
function SignedIn({ auth }: { auth: OAuthState }): ReactNode {
  const now = useNow(30_000);
  const parts = [`Signed in with OAuth${auth.clientId ? ` as client ${auth.clientId}` : ''}`];
  if (auth.scope) parts.push(`scope ${auth.scope}`);
  if (auth.expiresAt !== undefined) parts.push(auth.expiresAt > now ? `token expires in ${Math.max(1, Math.round((auth.expiresAt - now) / 60_000))} min` : 'token expired');
  if (auth.hasRefreshToken) parts.push('refreshes by itself');
  return <p className="mb-3 text-xs text-zinc-600 dark:text-zinc-300">{parts.join(' · ')}</p>;
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

/**
 * Whether the form shows: always but on a connected session, where it folds to the summary until
 * `Edit`; a new connection (Connect, Reconnect) folds it again once connected.
 */
function useFolding(status: SessionStatus | undefined): { folded: boolean; editing: boolean; setEditing(on: boolean): void; formRef: RefObject<HTMLDivElement | null> } {
  const [editing, setEditing] = useState(false);
  const [seen, setSeen] = useState(status);
  const asked = useRef(false);
  const formRef = useRef<HTMLDivElement>(null);
  if (status !== seen) {
    setSeen(status);
    if (status === 'connected') setEditing(false);
  }
  useEffect(() => {
    // Focus follows Edit to the form's first field (the Edit button is gone).
    if (editing && asked.current) formRef.current?.querySelector<HTMLElement>('select, input')?.focus();
    asked.current = false;
  }, [editing]);
  const set = (on: boolean) => {
    asked.current = on;
    setEditing(on);
  };
  return { folded: status === 'connected' && !editing, editing, setEditing: set, formRef };
}

export function ConnectionPanel(props: ConnectionPanelProps): ReactNode {
  const { word, dot } = statusWord(props.status, props.synced);
  const { folded, editing, setEditing, formRef } = useFolding(props.status);
  const fold = props.status === 'connected' && editing
    ? <button type="button" aria-label="Fold connection" className={`${buttonClass} !px-2 !py-1 !text-xs`} onClick={() => setEditing(false)}>Fold</button>
    : undefined;
  return (
    <Panel title={folded ? undefined : 'Connection'} label="Connection" actions={fold}>
      {folded ? (
        <div className="mb-1">
          <ConnectionSummary word={word} dot={dot} detail={props.statusDetail} canDisconnect={props.canDisconnect} onEdit={() => setEditing(true)} onDisconnect={props.onDisconnect} />
        </div>
      ) : (
        <div role="status" className="mb-3 flex items-center gap-2 text-sm">
          <span aria-hidden="true" className={`inline-block size-2.5 rounded-full ${dot}`} />
          <span className="font-semibold">{word}</span>
          {props.statusDetail && <span className="text-zinc-500 dark:text-zinc-400">{` · ${props.statusDetail}`}</span>}
        </div>
      )}
      {/* Also on a connected session: a step-up (403 insufficient_scope) asks for a new sign-in mid-call. */}
      {(props.auth?.phase === 'waiting-for-user' || (props.status === 'connecting' && props.auth?.phase === 'working')) ? (
        <SignIn auth={props.auth!} onCancel={props.onCancel} />
      ) : (
        props.status === 'connecting' && props.connecting && <ConnectingProgress since={props.connecting.since} timeoutMs={props.connecting.timeoutMs} waitingFor={props.connecting.waitingFor} onCancel={props.onCancel} />
      )}
      {props.status === 'connected' && props.auth?.phase === 'signed-in' && <SignedIn auth={props.auth} />}
      {props.protocol && hasProtocolInfo(props.protocol) && <ProtocolInfo session={props.protocol} />}
      <StatusError status={props.status} error={props.error} onReconnect={props.canConnect ? props.onReconnect : undefined} />
      {/* Folded, the form stays mounted (hidden): what was typed before a fold is still there after Edit. */}
      <div ref={formRef} hidden={folded}>
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
      </div>
    </Panel>
  );
}
