/**
 * Where a running Loupe can be found by `mcp-loupe --tap` (issue 13). TO BE WRITTEN (helper: tap).
 */
export interface RuntimeState {
  url: string;
  pid: number;
  version: string;
}

/** Writes the state file (0600); returns the function that removes it. */
export function writeRuntimeState(state: RuntimeState): () => void {
  void state;
  return () => undefined;
}
