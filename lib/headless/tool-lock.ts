/**
 * The tool-surface lockfile (issue 10, `--lock FILE`): what a server offers a client to call —
 * tools with their schemas and annotations, resource templates, prompts with their arguments — as
 * a file to commit, so that CI fails when the surface changes by accident. Like a package lock, it
 * must not change when nothing changed: entries are sorted by name, keys are in one order, and
 * nothing volatile goes in (not the server's version: a release that keeps the surface keeps the
 * file).
 *
 * Fixed resources (`resources/list`) are not in it: they are data (files, records), not surface.
 */
import { z } from 'zod';
import { jsonDifferences } from '../json/json-path.ts';

export const LOCK_FORMAT = 'mcp-loupe-lock';
export const LOCK_VERSION = 1;

export type LockKind = 'tool' | 'resourceTemplate' | 'prompt';

export interface LockEntry {
  name: string;
  [field: string]: unknown;
}

export interface ToolLock {
  format: typeof LOCK_FORMAT;
  version: number;
  /** Which server the file describes (informational: not compared). */
  server?: { name?: string };
  tools: LockEntry[];
  resourceTemplates: LockEntry[];
  prompts: LockEntry[];
}

/** The fields kept of each entry, in the order they are written (spec 2025-11-25 schema names). */
const FIELDS: Record<LockKind, readonly string[]> = {
  tool: ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'execution'],
  resourceTemplate: ['name', 'uriTemplate', 'mimeType', 'description'],
  prompt: ['name', 'description', 'arguments'],
};

const LIST_OF: Record<LockKind, 'tools' | 'resourceTemplates' | 'prompts'> = { tool: 'tools', resourceTemplate: 'resourceTemplates', prompt: 'prompts' };
const KINDS: readonly LockKind[] = ['tool', 'resourceTemplate', 'prompt'];
const LABEL: Record<LockKind, string> = { tool: 'tool', resourceTemplate: 'resource template', prompt: 'prompt' };

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Object keys sorted at every level, so that a server that reorders a schema's keys does not change the file. */
function sortedKeys(value: unknown, depth = 0): unknown {
  // Schemas nested deeper than this are kept as sent: a hostile depth must not overflow the stack.
  if (depth > 200) return value;
  if (Array.isArray(value)) return value.map((v) => sortedKeys(v, depth + 1));
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortedKeys(value[k], depth + 1)]));
}

function entryOf(kind: LockKind, item: Record<string, unknown>): LockEntry {
  const entry: Record<string, unknown> = {};
  for (const field of FIELDS[kind]) if (item[field] !== undefined) entry[field] = sortedKeys(item[field]);
  return entry as LockEntry;
}

const byName = (a: LockEntry, b: LockEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The lock of listed items (each list as the server sent its pages). Items without a name are left out and said. */
export function lockFromLists(lists: { tools: readonly unknown[]; resourceTemplates: readonly unknown[]; prompts: readonly unknown[]; serverName?: string }): { lock: ToolLock; notes: string[] } {
  const notes: string[] = [];
  const lock: ToolLock = { format: LOCK_FORMAT, version: LOCK_VERSION, ...(lists.serverName ? { server: { name: lists.serverName } } : {}), tools: [], resourceTemplates: [], prompts: [] };
  for (const kind of KINDS) {
    const seen = new Set<string>();
    for (const item of lists[LIST_OF[kind]]) {
      if (!isRecord(item) || typeof item.name !== 'string') {
        notes.push(`A ${LABEL[kind]} without a name was left out of the lock.`);
        continue;
      }
      if (seen.has(item.name)) {
        notes.push(`The ${LABEL[kind]} "${item.name}" is listed twice; the lock keeps the first.`);
        continue;
      }
      seen.add(item.name);
      lock[LIST_OF[kind]].push(entryOf(kind, item));
    }
    lock[LIST_OF[kind]].sort(byName);
  }
  return { lock, notes };
}

/** The file's text: pretty JSON, the same bytes for the same surface. */
export function lockText(lock: ToolLock): string {
  const ordered = { format: lock.format, version: lock.version, ...(lock.server ? { server: lock.server } : {}), tools: lock.tools, resourceTemplates: lock.resourceTemplates, prompts: lock.prompts };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

const EntrySchema = z.looseObject({ name: z.string() });
const LockSchema = z.looseObject({
  format: z.literal(LOCK_FORMAT),
  version: z.number(),
  server: z.looseObject({ name: z.string().optional() }).optional(),
  tools: z.array(EntrySchema),
  resourceTemplates: z.array(EntrySchema),
  prompts: z.array(EntrySchema),
});

const AGAIN = 'Delete it and run --lock again to write a new one.';

/** Reads a lock file. A file that is not one is one plain sentence. */
export function parseLock(text: string): { ok: true; lock: ToolLock } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `The lock file is not JSON (${(error as Error).message}). ${AGAIN}` };
  }
  if (!isRecord(data) || data.format !== LOCK_FORMAT) return { ok: false, error: `The lock file is not a Loupe lock file (expected "format": "${LOCK_FORMAT}"). ${AGAIN}` };
  const parsed = LockSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `The lock file is damaged at ${issue?.path.join('.') || 'the top'}: ${issue?.message ?? 'unexpected content'}. ${AGAIN}` };
  }
  if (parsed.data.version > LOCK_VERSION) return { ok: false, error: `The lock file has version ${parsed.data.version}, newer than this Loupe reads (${LOCK_VERSION}). Update Loupe, or ${AGAIN.toLowerCase()}` };
  const lock = parsed.data as unknown as ToolLock;
  // A hand-edited file may be out of order or carry other keys: compare it as Loupe would write it.
  const again = lockFromLists({ tools: lock.tools, resourceTemplates: lock.resourceTemplates, prompts: lock.prompts, serverName: lock.server?.name });
  return { ok: true, lock: again.lock };
}

export interface LockChange {
  kind: LockKind;
  name: string;
  paths: { path: string; old: unknown; new: unknown }[];
}

export interface LockDiff {
  added: { kind: LockKind; name: string }[];
  removed: { kind: LockKind; name: string }[];
  changed: LockChange[];
}

/** What changed from the committed lock (`old`) to the live surface (`now`). */
export function diffLock(old: ToolLock, now: ToolLock): LockDiff {
  const diff: LockDiff = { added: [], removed: [], changed: [] };
  for (const kind of KINDS) {
    const before = new Map(old[LIST_OF[kind]].map((e) => [e.name, e]));
    const after = new Map(now[LIST_OF[kind]].map((e) => [e.name, e]));
    for (const [name, entry] of after) {
      const was = before.get(name);
      if (!was) {
        diff.added.push({ kind, name });
        continue;
      }
      const paths = jsonDifferences(was, entry).map((d) => ({ path: d.path, old: d.old, new: d.new }));
      if (paths.length > 0) diff.changed.push({ kind, name, paths });
    }
    // Both maps are in name order already (lockFromLists sorts; parseLock reads through it).
    for (const name of before.keys()) if (!after.has(name)) diff.removed.push({ kind, name });
  }
  return diff;
}

export function lockDiffIsEmpty(diff: LockDiff): boolean {
  return diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
}

/** 0: the surface is as locked; 1: it changed. */
export function lockExitCode(diff: LockDiff): 0 | 1 {
  return lockDiffIsEmpty(diff) ? 0 : 1;
}
