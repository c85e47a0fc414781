/**
 * The headless CLI run in this process, for tests: the command line parsed as the CLI parses it,
 * what would reach stdout and stderr captured with the exit code. And server-everything's command.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseCliArgs, resolveTarget } from '../command-line/options.ts';
import { runHeadless } from '../faces/cli/run.ts';
import { defaultServer } from '../default-server.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** server-everything as a stdio command line. */
export const EVERYTHING = ['node', join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')];

export async function runCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) return { code: 2, stdout: '', stderr: parsed.error };
  const { parseWorkspace } = await import('../../lib/workspace/workspace.ts');
  const target = resolveTarget(parsed.options, { readFile: (p) => readFileSync(p, 'utf8'), defaultServer, parseWorkspace });
  if (!target.ok) return { code: 2, stdout: '', stderr: target.error };
  let stdout = '';
  let stderr = '';
  const code = await runHeadless(parsed.options, target.value, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}
