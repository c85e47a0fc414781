/**
 * `mcp-loupe --gateway` (issue 13): any target (a stdio command or a remote URL) served as a
 * Streamable HTTP endpoint on 127.0.0.1. TO BE WRITTEN (helper: gateway).
 */
import type { ServerConfig } from '../lib/server-config-types.ts';
import type { Engine } from './engine.ts';

export interface GatewayOptions {
  /** The target every client session gets a connection of its own to. */
  config: ServerConfig;
  /** undefined: a free port near 6290; 0: any. */
  port?: number;
  host?: string;
  idleMs?: number;
  maxSessions?: number;
  label?: string;
}

export interface RunningGateway {
  /** The endpoint clients use: `http://127.0.0.1:PORT/mcp`. */
  url: string;
  close(): Promise<void>;
}

export async function startGateway(engine: Engine, options: GatewayOptions): Promise<RunningGateway> {
  void engine;
  void options;
  throw new Error('not yet');
}
