/** The types a session's callers use (split from session.ts): what a request returns, its options, the client side, the view. */
import type { ClientCapabilityChoice, LoupeError, Root, RpcError, SessionInfo } from '../../lib/wire/wire.ts';

/** How long `initialize` may take by default (`--connect-timeout`, the form's Connect timeout). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

export type RequestOutcome = ({ ok: true; result: unknown } | { ok: false; error: RpcError | LoupeError }) & { rpcId?: string | number; /** See RawOutcome (raw-router.ts): the session times every request, for every face. */ durationMs?: number };

export interface RequestOptions {
  timeoutMs?: number;
  resetTimeoutOnProgress?: boolean;
  maxTotalTimeoutMs?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** The request is an MCP Apps view's (issue 24): its frame names the view. */
  byView?: string;
  /**
   * Told the final outcome in the turn its answer is read (RouterRequestOptions.onSettled); not
   * told an answer that a new sign-in will retry. Whatever it is told, `request` resolves with too.
   */
  onSettled?: (outcome: RequestOutcome) => void;
}

/** How Loupe plays the client's part on a connection (issue 4): chosen at connect time. */
export interface ClientSideOptions {
  clientCapabilities?: ClientCapabilityChoice;
  roots?: Root[];
  serverRequestTimeoutMs?: number;
  /** How long `initialize` may take; kept for later reconnects of the session. */
  connectTimeoutMs?: number;
}

/**
 * What the page is shown of a session beside its state (issue 9): its name, its config as written
 * (references for secrets, never their values: the session itself holds the resolved config), and
 * what it waits for. Kept by the hub's workspace model.
 */
export type SessionView = Pick<SessionInfo, 'name' | 'config' | 'disabled' | 'secretEnv' | 'secretHeaders' | 'waitingForInputs' | 'note'>;
