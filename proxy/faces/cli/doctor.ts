/**
 * `mcp-loupe --doctor [--format text|json|markdown]` and `mcp-loupe --export-tools
 * openai|anthropic|gemini` (issue 14): the doctor's report of one server (exit 1 when it has
 * errors), and its tool definitions for an LLM API, cleaned the way the report says, on stdout.
 */
import { reportJson, reportMarkdown, reportText } from '../../../lib/doctor/report.ts';
import { exportTools } from '../../../lib/doctor/export-tools.ts';
import type { HeadlessOptions } from '../../command-line/types.ts';
import { examine, fetchList } from '../../engine/doctor.ts';
import { EXIT, type HeadlessIo } from './io.ts';
import type { Session } from '../../session/session.ts';

/**
 * `pins`: the tools' hashes the --config workspace kept (saved from the page): a tool whose
 * description or schema changed since then, or that is new or gone, is said, as in the Doctor tab.
 */
export async function runDoctorMode(session: Session, h: HeadlessOptions, io: HeadlessIo, pins?: Record<string, string>): Promise<number> {
  const { report } = await examine(session, { timeoutMs: h.timeoutMs, pins });
  io.stdout(h.format === 'json' ? reportJson(report) : h.format === 'markdown' ? reportMarkdown(report) : reportText(report));
  return report.counts.error > 0 ? EXIT.failed : EXIT.ok;
}

export async function runExportMode(session: Session, h: HeadlessOptions, io: HeadlessIo, say: (line: string) => void): Promise<number> {
  const listed = await fetchList(session, 'tools/list', 'tools', h.timeoutMs ?? 30_000);
  if (listed.error) {
    say(`tools/list failed: ${listed.error.message}`);
    return EXIT.failed;
  }
  const info = session.snapshot();
  const { definitions, notes } = exportTools([{ name: info.serverInfo?.name ?? info.name, tools: listed.items }], h.exportTools!);
  for (const note of notes) say(note);
  io.stdout(`${JSON.stringify(definitions, null, 2)}\n`);
  return EXIT.ok;
}
