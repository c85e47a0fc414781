/**
 * `mcp-loupe --test FILE [--collection NAME]… [--var NAME=VALUE]… [--junit FILE] <target>` (issue 27):
 * the collections of a collection file (lib/collections/), run in order against the one server of
 * the session by the runner the page's Tests tab uses, through the headless port (collection-port.ts).
 * The report on stdout, one line per call and each failed assertion's sentence; exit 0 when every
 * call passed (skips allowed), 1 when one failed or erred, 2 for a usage problem (a file that cannot
 * be read, a collection that is not in it), as `--verify`. The file is read before the server starts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { unknownNameMessage } from '../../../lib/headless/cli-arguments.ts';
import { readCollectionFile } from '../../../lib/collections/read.ts';
import { runCollections } from '../../../lib/collections/run.ts';
import { collectionsJunit } from '../../../lib/collections/junit.ts';
import { formatTestText, testExitCode } from '../../../lib/collections/text.ts';
import type { Collection } from '../../../lib/collections/schema.ts';
import type { HeadlessOptions } from '../../command-line/types.ts';
import type { Session } from '../../session/session.ts';
import { headlessCallPort } from './collection-port.ts';
import { EXIT, type HeadlessIo } from './io.ts';

/** What --test runs, read and checked before the server starts. */
export interface TestPlan {
  file: string;
  collections: Collection[];
}

/** The file's collections (the ones `--collection` names, in the file's order); the exit code, its sentence said, when the file will not do. */
export function readTestPlan(h: HeadlessOptions, say: (line: string) => void): TestPlan | number {
  const file = h.test!;
  const usage = (line: string) => {
    say(line);
    return EXIT.usage;
  };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return usage(`cannot read the collection file ${file}: ${(error as Error).message}`);
  }
  const read = readCollectionFile(text);
  if (!read.ok) return usage(`${file}: ${read.error}`);
  for (const note of read.notes) say(`${file}: ${note}`);
  const names = read.collections.map((c) => c.name);
  for (const wanted of h.collections ?? []) if (!names.includes(wanted)) return usage(`${file}: ${unknownNameMessage('collection', wanted, names)}`);
  const collections = h.collections ? read.collections.filter((c) => h.collections!.includes(c.name)) : read.collections;
  if (collections.length === 0) return usage(`${file} has no collections: add one under "collections".`);
  return { file, collections };
}

/**
 * The servers the plan's collections name (a collection's `server`, set in a workspace of several
 * servers), each once, in the file's order: the run picks the one server they all name when
 * `--server` does not (run.ts).
 */
export function serversOfPlan(plan: TestPlan): string[] {
  return [...new Set(plan.collections.flatMap((c) => (c.server !== undefined ? [c.server] : [])))];
}

/**
 * Runs the plan against the session, prints the report, writes the JUnit file; the exit code.
 * `server`: the workspace's name for the session's server, when it came from a --config file: a
 * collection for another of its servers is not run against this one (its calls are skipped, saying
 * which server it is for).
 */
export async function runTestMode(session: Session, plan: TestPlan, h: HeadlessOptions, io: HeadlessIo, say: (line: string) => void, server?: string): Promise<number> {
  const started = new Date();
  const verdicts = await runCollections(plan.collections, headlessCallPort(session), {
    variables: h.vars,
    timeoutMs: h.timeoutMs,
    skipCollection: (c) => (server !== undefined && c.server !== undefined && c.server !== server ? `This collection is for the server ${JSON.stringify(c.server)}, and this run is against ${JSON.stringify(server)}: run it with --server ${c.server}.` : undefined),
  });
  io.stdout(formatTestText(verdicts));
  if (h.junit) {
    const info = session.snapshot().serverInfo;
    const server = info?.name ? `${info.name}${info.version ? ` ${info.version}` : ''}` : undefined;
    try {
      writeFileSync(h.junit, collectionsJunit(verdicts, { timestamp: started.toISOString(), properties: { file: plan.file, ...(server ? { server } : {}) } }));
    } catch (error) {
      say(`cannot write the JUnit report ${h.junit}: ${(error as Error).message}`);
      return EXIT.usage;
    }
  }
  return testExitCode(verdicts);
}
