/**
 * `mcp-loupe --mock <trace.jsonl> [--mock-port N [--mock-no-auth]]` (issue 10): be the recorded
 * server, over stdio or Streamable HTTP, until stdin ends or a signal stops it. The mock itself is
 * proxy/faces/mock/; this reads the recording, starts it, and says where it answers.
 */
import { basename } from 'node:path';
import type { HeadlessOptions } from '../../command-line/types.ts';
import { EXIT, type HeadlessIo } from './io.ts';
import { loadTraceReader, readTrace } from './recording.ts';

export async function runMockMode(h: HeadlessOptions, io: HeadlessIo, say: (line: string) => void): Promise<number> {
  await loadTraceReader();
  const trace = readTrace(h.mock!, say);
  if (typeof trace === 'number') return trace;
  const [{ startMock, MockStartError }, { mockLines }] = await Promise.all([import('../mock/mock.ts'), import('../../listen/client-lines.ts')]);
  // Before the line that says it listens: a script that sends SIGTERM once it reads that line must
  // find the handler in place, not Node's default (killed by the signal).
  let mock: Awaited<ReturnType<typeof startMock>> | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    void mock?.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    // The mock's lines already say "Loupe mock: …" (the same sentence its client gets as an error).
    mock = await startMock(trace, { port: h.mockPort, noAuth: h.mockNoAuth, log: (line: string) => process.stderr.write(`${line}\n`) });
  } catch (error) {
    if (!(error instanceof MockStartError)) throw error;
    say(`${h.mock}: ${error.message}`);
    return error.code === 'LISTEN_FAILED' ? EXIT.connect : EXIT.usage;
  }
  if (stopped) await mock.close();
  const { answers, methods, protocolVersion } = mock.recorded;
  const what = `${answers} recorded answers (${methods.join(', ')}; protocol ${protocolVersion ?? 'unknown'})`;
  if (!mock.url) say(`mock of ${h.mock} answering on stdio with ${what}; it stops when stdin ends`);
  else {
    // Over HTTP, the token (on the user's terminal, never in a command line) and where to paste it,
    // or the warning of --mock-no-auth, in the same write as the URL: a script that reads up to the
    // URL line must not miss the lines that belong with it.
    const lines = mockLines({ url: mock.url, token: mock.token, file: h.mock!, name: basename(h.mock!).replace(/\.jsonl?$/i, '') });
    say(`mock of ${h.mock} listening at ${mock.url} with ${what}\n${lines.trimEnd()}`);
  }
  await mock.done;
  return EXIT.ok;
}
