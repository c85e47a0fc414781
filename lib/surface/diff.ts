/**
 * What changed in a server's surface (issue 25): its tools, resource templates, prompts and fixed
 * resources, between two points — before and after a restart, any two points of a session, or the
 * committed lock file and the live server (`--lock`, lib/headless/tool-lock.ts uses these words).
 *
 * Each change has a severity, from the point of view of a client that worked before:
 * - `breaking`: such a client can now fail — a tool, template or prompt removed; an input property
 *   removed that was required, made required, or added as required; a property's type changed; an
 *   enum value no longer accepted; an output property removed or retyped; a URI template changed;
 * - `warning`: it may behave differently — annotations (a tool that became destructive), an optional
 *   input removed, other schema keywords (additionalProperties…), a fixed resource gone;
 * - `info`: nothing a working client depends on — additions, descriptions, titles.
 */
import { formatPath, jsonDifferences, jsonEqual, type PathKey } from '../json/json-path.ts';
import { lockFromLists, type LockEntry, type ToolLock } from '../headless/tool-lock.ts';

export type Severity = 'breaking' | 'warning' | 'info';
export type SurfaceKind = 'tool' | 'resourceTemplate' | 'prompt' | 'resource';

/** A server's surface as listed (each list as the server sent its pages, joined). */
export interface SurfaceLists {
  tools: readonly unknown[];
  resourceTemplates: readonly unknown[];
  prompts: readonly unknown[];
  /** Fixed resources: left out of the lock file (data, not surface), compared after a restart. */
  resources?: readonly unknown[];
}

export interface SurfaceDetail {
  /** Where, as a JSONPath into the entry (`$.inputSchema.properties.count`). */
  path: string;
  severity: Severity;
  /** One phrase: `input property "count" is now required`. */
  says: string;
  old?: unknown;
  new?: unknown;
}

export interface SurfaceChange {
  kind: SurfaceKind;
  name: string;
  change: 'added' | 'removed' | 'changed';
  /** The worst of its details (an addition is info, a removal of a fixed resource a warning, any other removal breaking). */
  severity: Severity;
  details: SurfaceDetail[];
}

export interface SurfaceDiff {
  changes: SurfaceChange[];
  added: number;
  removed: number;
  changed: number;
  breaking: number;
}

const RANK: Record<Severity, number> = { info: 0, warning: 1, breaking: 2 };
const worst = (severities: Severity[]): Severity => severities.reduce<Severity>((a, b) => (RANK[b] > RANK[a] ? b : a), 'info');
export const KIND_LABEL: Record<SurfaceKind, string> = { tool: 'tool', resourceTemplate: 'resource template', prompt: 'prompt', resource: 'resource' };

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const recordOr = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {});
const names = (v: unknown): Set<string> => new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const shown = (v: unknown): string => (v === undefined ? '(absent)' : JSON.stringify(v) ?? String(v));

/** A schema's properties compared one by one (`role`: whose values they are: the client's input or the server's output). */
function schemaDetails(field: 'inputSchema' | 'outputSchema', a: unknown, b: unknown): SurfaceDetail[] {
  if (jsonEqual(a, b)) return [];
  const role = field === 'inputSchema' ? 'input' : 'output';
  const out: SurfaceDetail[] = [];
  const at = (...keys: PathKey[]) => formatPath([field, ...keys]);
  if (a === undefined || b === undefined) {
    const severity: Severity = b === undefined && role === 'output' ? 'warning' : 'info';
    return [{ path: at(), severity, says: `${field} ${b === undefined ? 'removed' : 'added'}`, old: a, new: b }];
  }
  const [sa, sb] = [recordOr(a), recordOr(b)];
  const [pa, pb] = [recordOr(sa.properties), recordOr(sb.properties)];
  const [ra, rb] = [names(sa.required), names(sb.required)];
  for (const name of Object.keys(pa)) {
    if (Object.hasOwn(pb, name)) continue;
    const severity: Severity = role === 'output' || ra.has(name) ? 'breaking' : 'warning';
    out.push({ path: at('properties', name), severity, says: `${ra.has(name) ? 'required ' : ''}${role} property "${name}" removed`, old: pa[name] });
  }
  for (const name of Object.keys(pb)) {
    if (Object.hasOwn(pa, name)) continue;
    const required = rb.has(name);
    out.push({ path: at('properties', name), severity: role === 'input' && required ? 'breaking' : 'info', says: `${required ? 'required ' : ''}${role} property "${name}" added`, new: pb[name] });
  }
  for (const name of Object.keys(pa)) {
    if (!Object.hasOwn(pb, name)) continue;
    out.push(...propertyDetails(role, [field, 'properties', name], name, recordOr(pa[name]), recordOr(pb[name])));
    if (role === 'input' && !ra.has(name) && rb.has(name)) out.push({ path: at('required'), severity: 'breaking', says: `input property "${name}" is now required` });
    if (role === 'input' && ra.has(name) && !rb.has(name)) out.push({ path: at('required'), severity: 'info', says: `input property "${name}" is no longer required` });
  }
  // The rest of the schema (its type, additionalProperties, $defs…), path by path.
  const rest = (s: Record<string, unknown>) => Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'properties' && k !== 'required'));
  for (const d of jsonDifferences(rest(sa), rest(sb), { limit: 50 })) {
    const descriptive = d.keys.some((k) => k === 'description' || k === 'title' || k === 'examples');
    out.push({ path: formatPath([field, ...d.keys]), severity: descriptive ? 'info' : 'warning', says: `${field}${formatPath(d.keys).slice(1)} changed`, old: d.old, new: d.new });
  }
  return out;
}

function propertyDetails(role: 'input' | 'output', keys: PathKey[], name: string, a: Record<string, unknown>, b: Record<string, unknown>): SurfaceDetail[] {
  const out: SurfaceDetail[] = [];
  if (!jsonEqual(a.type, b.type)) out.push({ path: formatPath([...keys, 'type']), severity: 'breaking', says: `${role} property "${name}" changed type`, old: a.type, new: b.type });
  const [ea, eb] = [a.enum, b.enum];
  if (!jsonEqual(ea, eb) && Array.isArray(ea) && Array.isArray(eb)) {
    const gone = ea.filter((v: unknown) => !eb.some((w: unknown) => jsonEqual(v, w)));
    const come = eb.filter((v: unknown) => !ea.some((w: unknown) => jsonEqual(v, w)));
    if (gone.length > 0) out.push({ path: formatPath([...keys, 'enum']), severity: role === 'input' ? 'breaking' : 'warning', says: `${role} property "${name}" no longer ${role === 'input' ? 'accepts' : 'gives'} ${gone.map(shown).join(', ')}` });
    if (come.length > 0) out.push({ path: formatPath([...keys, 'enum']), severity: role === 'input' ? 'info' : 'warning', says: `${role} property "${name}" now ${role === 'input' ? 'accepts' : 'may give'} ${come.map(shown).join(', ')}` });
  }
  const rest = (s: Record<string, unknown>) => Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'type' && !(k === 'enum' && Array.isArray(a.enum) && Array.isArray(b.enum))));
  for (const d of jsonDifferences(rest(a), rest(b), { limit: 20 })) {
    const descriptive = d.keys.some((k) => k === 'description' || k === 'title' || k === 'examples' || k === 'default');
    out.push({ path: formatPath([...keys, ...d.keys]), severity: descriptive ? 'info' : 'warning', says: `${role} property "${name}": ${String(d.keys[0])} changed`, old: d.old, new: d.new });
  }
  return out;
}

function plainDetails(entryA: LockEntry, entryB: LockEntry, skip: readonly string[], severityOf: (key: string) => Severity): SurfaceDetail[] {
  const a = Object.fromEntries(Object.entries(entryA).filter(([k]) => !skip.includes(k)));
  const b = Object.fromEntries(Object.entries(entryB).filter(([k]) => !skip.includes(k)));
  return jsonDifferences(a, b, { limit: 50 }).map((d) => ({ path: d.path, severity: severityOf(String(d.keys[0])), says: `${d.path.slice(2)} changed`, old: d.old, new: d.new }));
}

function toolDetails(a: LockEntry, b: LockEntry): SurfaceDetail[] {
  return [
    ...schemaDetails('inputSchema', a.inputSchema, b.inputSchema),
    ...schemaDetails('outputSchema', a.outputSchema, b.outputSchema),
    ...plainDetails(a, b, ['name', 'inputSchema', 'outputSchema'], (key) => (key === 'annotations' || key === 'execution' ? 'warning' : 'info')),
  ];
}

function promptDetails(a: LockEntry, b: LockEntry): SurfaceDetail[] {
  const args = (e: LockEntry) => new Map((Array.isArray(e.arguments) ? e.arguments : []).filter(isRecord).map((x) => [String(x.name), x]));
  const [aa, ab] = [args(a), args(b)];
  const out: SurfaceDetail[] = [];
  for (const [name, arg] of aa) {
    const now = ab.get(name);
    if (!now) out.push({ path: '$.arguments', severity: arg.required === true ? 'breaking' : 'warning', says: `${arg.required === true ? 'required ' : ''}argument "${name}" removed` });
    else if (arg.required !== true && now.required === true) out.push({ path: '$.arguments', severity: 'breaking', says: `argument "${name}" is now required` });
    else if (arg.required === true && now.required !== true) out.push({ path: '$.arguments', severity: 'info', says: `argument "${name}" is no longer required` });
    else if (!jsonEqual(arg, now)) out.push({ path: '$.arguments', severity: 'info', says: `argument "${name}" changed`, old: arg, new: now });
  }
  for (const [name, arg] of ab) if (!aa.has(name)) out.push({ path: '$.arguments', severity: arg.required === true ? 'breaking' : 'info', says: `${arg.required === true ? 'required ' : ''}argument "${name}" added` });
  return [...out, ...plainDetails(a, b, ['name', 'arguments'], () => 'info')];
}

function templateDetails(a: LockEntry, b: LockEntry): SurfaceDetail[] {
  return plainDetails(a, b, ['name'], (key) => (key === 'uriTemplate' ? 'breaking' : 'info')).map((d) => (d.path === '$.uriTemplate' ? { ...d, says: 'URI template changed' } : d));
}

/** Fixed resources by URI (their name is a label): what a restart changed of the data a server offers. */
function resourceEntries(list: readonly unknown[] | undefined): LockEntry[] {
  const byUri = new Map<string, LockEntry>();
  for (const item of list ?? []) {
    if (!isRecord(item) || typeof item.uri !== 'string' || byUri.has(item.uri)) continue;
    const entry: LockEntry = { name: item.uri };
    for (const key of ['name', 'title', 'mimeType', 'description', 'size']) if (item[key] !== undefined) entry[key === 'name' ? 'label' : key] = item[key];
    byUri.set(item.uri, entry);
  }
  return [...byUri.values()].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}

const DETAILS: Record<SurfaceKind, (a: LockEntry, b: LockEntry) => SurfaceDetail[]> = {
  tool: toolDetails,
  resourceTemplate: templateDetails,
  prompt: promptDetails,
  resource: (a, b) => plainDetails(a, b, ['name'], () => 'info'),
};

function diffEntries(kind: SurfaceKind, before: readonly LockEntry[], after: readonly LockEntry[], out: SurfaceChange[]): void {
  const old = new Map(before.map((e) => [e.name, e]));
  const now = new Map(after.map((e) => [e.name, e]));
  for (const [name, entry] of old) {
    const next = now.get(name);
    if (!next) {
      out.push({ kind, name, change: 'removed', severity: kind === 'resource' ? 'warning' : 'breaking', details: [] });
      continue;
    }
    if (jsonEqual(entry, next)) continue;
    const details = DETAILS[kind](entry, next);
    if (details.length > 0) out.push({ kind, name, change: 'changed', severity: worst(details.map((d) => d.severity)), details });
  }
  for (const name of now.keys()) if (!old.has(name)) out.push({ kind, name, change: 'added', severity: 'info', details: [] });
}

/** The lock's entries and the fixed resources of two surfaces, compared. */
export function diffSurfaces(before: SurfaceLists | ToolLock, after: SurfaceLists | ToolLock): SurfaceDiff {
  const lockOf = (s: SurfaceLists | ToolLock) => ('format' in s ? s : lockFromLists(s).lock);
  const [a, b] = [lockOf(before), lockOf(after)];
  const changes: SurfaceChange[] = [];
  diffEntries('tool', a.tools, b.tools, changes);
  diffEntries('resourceTemplate', a.resourceTemplates, b.resourceTemplates, changes);
  diffEntries('prompt', a.prompts, b.prompts, changes);
  if (!('format' in before) && !('format' in after)) diffEntries('resource', resourceEntries(before.resources), resourceEntries(after.resources), changes);
  const count = (change: SurfaceChange['change']) => changes.filter((c) => c.change === change).length;
  return { changes, added: count('added'), removed: count('removed'), changed: count('changed'), breaking: changes.filter((c) => c.severity === 'breaking').length };
}

export function surfaceDiffIsEmpty(diff: SurfaceDiff): boolean {
  return diff.changes.length === 0;
}

/** The one-line verdict: `1 added, 0 removed, 1 changed (1 breaking)`, or `nothing changed`. */
export function summarizeSurfaceDiff(diff: SurfaceDiff): string {
  if (surfaceDiffIsEmpty(diff)) return 'nothing added, removed or changed';
  return `${diff.added} added, ${diff.removed} removed, ${diff.changed} changed${diff.breaking > 0 ? ` (${diff.breaking} breaking)` : ''}`;
}

/**
 * The diff as text, in the words the page shows: `+` added, `-` removed, `~` changed, each with its
 * severity, and under a change each detail with its path and both values where there are values.
 */
export function formatSurfaceDiff(diff: SurfaceDiff, subject = 'The surface'): string {
  if (surfaceDiffIsEmpty(diff)) return `${subject} is unchanged: nothing added, removed or changed.\n`;
  const lines = [`${subject} changed: ${summarizeSurfaceDiff(diff)}.`];
  const mark = { added: '+', removed: '-', changed: '~' } as const;
  for (const c of diff.changes) {
    lines.push(`${mark[c.change]} ${KIND_LABEL[c.kind]} ${c.name}  [${c.severity}]`);
    for (const d of c.details) {
      const values = d.old !== undefined || d.new !== undefined ? `: ${shown(d.old)} → ${shown(d.new)}` : '';
      lines.push(`    ${d.severity.padEnd(8)} ${d.says} (${d.path})${values}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
