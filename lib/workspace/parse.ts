/**
 * Any supported file → a Workspace. The formats (issue 9, "What a user can do" 1):
 * - `mcpServers`: Claude Desktop, Cursor, Claude Code's project `.mcp.json` (entries with `type`),
 *   Windsurf (`serverUrl`, `disabled`), Cline (`disabled`, `autoApprove`, `alwaysAllow`, `timeout`,
 *   `transportType`);
 * - `servers` (VS Code `.vscode/mcp.json`) or `mcp.servers` (VS Code settings.json), with `inputs`;
 * - JSONC in all of them.
 * Each entry goes through `parseEntry` (server-config.ts), the normaliser the CLI uses too. Keys
 * Loupe does not act on are kept (`WorkspaceServer.other`) and named in a note.
 */
import { z } from 'zod';
import { parseJsonc } from '../json/jsonc.ts';
import { ENTRY_KEYS, findSections, isObject, parseEntry, type Flavour } from '../config/server-config.ts';
import { isReference, placeholdersOf, referencesOf } from './references.ts';
import { readRules } from '../rules/file.ts';
import { readCollections } from '../collections/read.ts';
import type { Collection } from '../collections/schema.ts';
import { readWorkspaceOtlp } from '../otel/workspace-otlp.ts';
import { readEvalData, type EvalFile } from '../evals/schema.ts';
import type { Rule } from '../model/rules.ts';
import {
  EXTRAS_KEY, FileExtrasSchema, FileServerExtrasSchema, SavedQuerySchema,
  type FileServerExtras, type InputDecl, type Result, type SavedQuery, type ServerExtras, type Workspace, type WorkspaceServer,
} from './types.ts';

type Json = Record<string, unknown>;
const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });
const quoted = (s: string): string => JSON.stringify(s);

/** Why a kept key is not used, by host convention; other keys get the generic note. */
const KEY_NOTES: Record<string, string> = {
  autoApprove: 'is kept in the file; Loupe does not use it (every call is one you make).',
  alwaysAllow: 'is kept in the file; Loupe does not use it (every call is one you make).',
  timeout: 'is kept in the file; Loupe uses its own connect timeout instead.',
  envFile: 'is kept in the file, but its variables are not loaded.',
};
/** Top-level keys Loupe reads or writes itself. */
const OWN_TOP_KEYS = new Set(['mcpServers', 'servers', 'inputs', EXTRAS_KEY]);

/** Any supported file. Errors name the entry and why. */
export function parseWorkspace(text: string): Result<Workspace> {
  const parsed = parseJsonc(text);
  return parsed.ok ? workspaceFromData(parsed.value) : parsed;
}

/** The same, from a parsed JSON value (parseImport uses it for pasted fragments). */
export function workspaceFromData(data: unknown): Result<Workspace> {
  const sections = findSections(data);
  if (!sections.ok) return sections;
  const top = data as Json;
  const notes: string[] = [];
  const inputs = readInputs(top.inputs, notes);
  const extras = readExtras(top[EXTRAS_KEY], notes);
  const rules = readFileRules(top[EXTRAS_KEY], notes);
  const queries = readFileQueries(top[EXTRAS_KEY], notes);
  const collections = readFileCollections(top[EXTRAS_KEY], notes);
  const evals = readFileEvals(top[EXTRAS_KEY], notes);
  const otlp = readWorkspaceOtlp(top[EXTRAS_KEY], EXTRAS_KEY, notes);
  const servers: WorkspaceServer[] = [];
  for (const [flavour, entries] of sections.value) {
    for (const [name, entry] of Object.entries(entries)) {
      if (servers.some((s) => s.name === name)) return fail(`Server ${quoted(name)} is defined twice.`);
      const server = readServer(name, entry, flavour, { inputs, extras: extras.get(name), notes });
      if (!server.ok) return fail(`Server ${quoted(name)}: ${server.error}`);
      servers.push(server.value);
    }
  }
  for (const name of extras.keys()) {
    if (!servers.some((s) => s.name === name)) notes.push(`"${EXTRAS_KEY}" has settings for ${quoted(name)}, which the file does not define; they are dropped.`);
  }
  const fromSettings = isObject(top.mcp) && top.mcp.servers !== undefined;
  if (fromSettings) notes.push('Servers read from "mcp.servers" of a VS Code settings.json; saving writes a separate mcp.json-style file.');
  const other = fromSettings ? undefined : otherTopKeys(top);
  const flavour = sections.value[0][0];
  return { ok: true, value: { flavour, servers, inputs, notes, ...(other ? { other } : {}), ...(rules ? { rules } : {}), ...(queries ? { queries } : {}), ...(collections ? { collections } : {}), ...(evals ? { evals } : {}), ...(otlp ? { otlp } : {}) } };
}

function otherTopKeys(top: Json): Json | undefined {
  const kept = Object.entries(top).filter(([key]) => !OWN_TOP_KEYS.has(key));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

interface Context {
  inputs: InputDecl[];
  extras: FileServerExtras | undefined;
  notes: string[];
}

function readServer(name: string, entry: unknown, flavour: Flavour, ctx: Context): Result<WorkspaceServer> {
  const parsed = parseEntry(name, entry, flavour);
  if (!parsed.ok) return parsed;
  const e = entry as Json;
  const say = (note: string): void => void ctx.notes.push(`Server ${quoted(name)}: ${note}`);
  let config = parsed.value;
  if (ctx.extras?.transport === 'http' && config.kind === 'http' && config.transport === 'auto') config = { ...config, transport: 'http' };
  if (ctx.extras?.protocol && ctx.extras.protocol !== '2025-11-25') config = { ...config, protocol: ctx.extras.protocol };
  if (e.disabled !== undefined && typeof e.disabled !== 'boolean') say('"disabled" is not true or false; the server is started.');
  const other = Object.fromEntries(Object.entries(e).filter(([key]) => !ENTRY_KEYS.includes(key) && key !== 'disabled'));
  for (const [key, value] of Object.entries(other)) {
    const shown = key === 'envFile' && typeof value === 'string' ? `"envFile" (${value})` : quoted(key);
    say(`${shown} ${KEY_NOTES[key] ?? 'is kept in the file; Loupe does not use it.'}`);
  }
  noteReferences(config, ctx.inputs, say);
  const extras: ServerExtras = {};
  if (ctx.extras?.clientCapabilities) extras.clientCapabilities = ctx.extras.clientCapabilities;
  if (ctx.extras?.savedCalls?.length) extras.savedCalls = ctx.extras.savedCalls;
  if (ctx.extras?.toolPins && Object.keys(ctx.extras.toolPins).length > 0) extras.toolPins = ctx.extras.toolPins;
  const secretOf = (record: Record<string, string>): string[] => Object.keys(record).filter((k) => isReference(record[k], ctx.inputs));
  return {
    ok: true,
    value: {
      name,
      config,
      disabled: e.disabled === true,
      secretEnv: config.kind === 'stdio' ? secretOf(config.env) : [],
      secretHeaders: config.kind === 'http' ? secretOf(config.headers) : [],
      extras,
      ...(Object.keys(other).length > 0 ? { other } : {}),
    },
  };
}

function noteReferences(config: WorkspaceServer['config'], inputs: InputDecl[], say: (note: string) => void): void {
  const undeclared = referencesOf(config).inputs.filter((id) => !inputs.some((i) => i.id === id));
  if (undeclared.length > 0) {
    say(`${undeclared.map((id) => `\${input:${id}}`).join(', ')} not declared in "inputs"; Loupe asks for ${undeclared.length > 1 ? 'them' : 'it'} as a secret.`);
  }
  const placeholders = placeholdersOf(config);
  if (placeholders.length > 0) say(`${placeholders.join(', ')} left as written unless Loupe knows ${placeholders.length > 1 ? 'their values' : 'its value'}.`);
}

/** VS Code `inputs`: promptString ones are used; other types are asked as text, with a note. */
function readInputs(value: unknown, notes: string[]): InputDecl[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    notes.push('"inputs" is not a list; it is ignored.');
    return [];
  }
  const inputs: InputDecl[] = [];
  for (const item of value) {
    if (!isObject(item) || typeof item.id !== 'string' || item.id === '') {
      notes.push(`An entry of "inputs" has no "id"; it is ignored.`);
      continue;
    }
    if (item.type !== 'promptString') notes.push(`Input ${quoted(item.id)} has type ${JSON.stringify(item.type)}; Loupe asks for it as text.`);
    inputs.push({
      id: item.id,
      type: 'promptString',
      ...(typeof item.description === 'string' ? { description: item.description } : {}),
      ...(typeof item.password === 'boolean' ? { password: item.password } : {}),
      ...(typeof item.default === 'string' ? { default: item.default } : {}),
    });
  }
  return inputs;
}

/** The interception rules under `x-mcp-loupe.rules` (issue 13); a bad list is a note, and no rule is loaded. */
function readFileRules(value: unknown, notes: string[]): Rule[] | undefined {
  if (!isObject(value) || value.rules === undefined) return undefined;
  const read = readRules(value.rules);
  if (read.ok) return read.rules;
  notes.push(`"${EXTRAS_KEY}.rules" is not valid (${read.error}); no interception rule of the file is loaded.`);
  return undefined;
}

/** The saved History queries under `x-mcp-loupe.queries` (issue 26); a bad list is a note, and none is loaded. */
function readFileQueries(value: unknown, notes: string[]): SavedQuery[] | undefined {
  if (!isObject(value) || value.queries === undefined) return undefined;
  const read = z.array(SavedQuerySchema).safeParse(value.queries);
  if (read.success) return read.data.length > 0 ? read.data : undefined;
  notes.push(`"${EXTRAS_KEY}.queries" is not a list of saved queries (${read.error.issues[0]?.message ?? 'unknown'}); none is loaded.`);
  return undefined;
}

/** The test collections under `x-mcp-loupe.collections` (issue 27); a bad list is a note naming where, and none is loaded. */
function readFileCollections(value: unknown, notes: string[]): Collection[] | undefined {
  if (!isObject(value) || value.collections === undefined) return undefined;
  const read = readCollections(value.collections, `${EXTRAS_KEY}.collections`);
  if (!read.ok) {
    notes.push(`"${EXTRAS_KEY}.collections" is not valid (${read.error}); no collection is loaded.`);
    return undefined;
  }
  notes.push(...read.notes);
  return read.collections.length > 0 ? read.collections : undefined;
}

/** The model evals under `x-mcp-loupe.evals` (issue 27); a bad one is a note naming where, and none is loaded. */
function readFileEvals(value: unknown, notes: string[]): EvalFile | undefined {
  if (!isObject(value) || value.evals === undefined) return undefined;
  const read = readEvalData(value.evals);
  if (read.ok) return read.file.cases.length > 0 ? read.file : undefined;
  notes.push(`"${EXTRAS_KEY}.evals" is not valid (${read.error}); no eval is loaded.`);
  return undefined;
}

/** Loupe's own key; anything wrong in it is a note, never an error (the servers still open). */
function readExtras(value: unknown, notes: string[]): Map<string, FileServerExtras> {
  const extras = new Map<string, FileServerExtras>();
  if (value === undefined) return extras;
  const file = FileExtrasSchema.safeParse(value);
  if (!file.success) {
    notes.push(`"${EXTRAS_KEY}" is not a version 1 block Loupe understands; saved calls and capability choices in it are ignored.`);
    return extras;
  }
  for (const [name, block] of Object.entries(file.data.servers)) {
    const server = FileServerExtrasSchema.safeParse(block);
    if (server.success) extras.set(name, server.data);
    else notes.push(`Server ${quoted(name)}: its "${EXTRAS_KEY}" settings are not valid (${server.error.issues[0]?.message ?? 'unknown'}); they are ignored.`);
  }
  return extras;
}
