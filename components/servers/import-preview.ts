/**
 * What an import would add (issue 9, item 5), before anything changes: the servers (clashing names
 * renamed NAME-2 …) and the notes, or the error in the CLI's words — a file's error starts with
 * the file, as proxy/command-line/target.ts says it (`FILE: Server "X": why`).
 */
import { mergeServers, parseImport, type Result, type WorkspaceServer } from '../../lib/workspace/workspace.ts';

export interface ImportPreview {
  servers: WorkspaceServer[];
  notes: string[];
}

/** `source`: the file (or path) the text came from; undefined when pasted. */
export function previewImport(text: string, source: string | undefined, existing: readonly WorkspaceServer[]): Result<ImportPreview> {
  const parsed = parseImport(text);
  const where = (why: string) => (source === undefined ? why : `${source}: ${why}`);
  if (!parsed.ok) return { ok: false, error: where(parsed.error) };
  if (parsed.value.servers.length === 0) return { ok: false, error: where('The config defines no servers.') };
  const merged = mergeServers(existing, parsed.value.servers);
  return { ok: true, value: { servers: merged.servers.slice(existing.length), notes: [...parsed.value.notes, ...merged.notes] } };
}
