/**
 * Loupe's side of `mcp-loupe --tap --attach` (issue 13): a tap process on `/tap?token=…` becomes
 * a relay session in the engine. TO BE WRITTEN (helper: tap).
 */
import type { WebSocket } from 'ws';
import type { Engine } from './engine.ts';

export function acceptTap(engine: Engine, ws: WebSocket): void {
  void engine;
  ws.close(1011, 'not yet');
}
