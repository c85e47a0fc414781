/**
 * What every mode without a browser shares with the runner that picks it (run.ts): the two streams
 * it writes, and the code it exits with.
 */

/**
 * Exit codes (docs/contract.md): 0 success; 1 the server answered with an error, a tool result with
 * `isError`, a failed smoke check or drift; 2 usage; 3 could not connect; 4 timeout.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, connect: 3, timeout: 4 } as const;

/** Where a mode writes: its result on stdout, what it has to say on stderr (tests pass their own). */
export interface HeadlessIo {
  stdout(text: string): void;
  stderr(text: string): void;
}
