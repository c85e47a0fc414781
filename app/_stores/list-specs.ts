/** What each server-side list is called on the wire, and how its untrusted items are read. */
import type { PromptArgument, PromptEntry, ResourceEntry, TemplateEntry } from '../../lib/client/catalog.ts';
import { parseIcons } from '../../lib/content/icons.ts';
import { parseTools, type ToolEntry } from '../../lib/schema/tool-schema.ts';

/** How one MCP list is fetched and read: its method, where its items are, the capability it needs. */
export interface ListSpec<T> {
  method: string;
  itemsKey: string;
  /** The `capabilities` member that must be present. */
  capability: string;
  listChanged: string;
  parse(items: unknown[]): { items: T[]; problems: string[] };
}

export type { PromptArgument, PromptEntry, ResourceEntry, TemplateEntry };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * A list result's cache hint (2026-07-28): `ttlMs`, how long the list may be served without
 * asking again, and `cacheScope`, who may share it. A hint that is not a finite non-negative
 * number is no hint.
 */
export interface CacheHint {
  ttlMs: number;
  scope?: 'public' | 'private';
}

export function readCacheHint(result: unknown): CacheHint | undefined {
  if (!isObj(result)) return undefined;
  const ttl = result.ttlMs;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0) return undefined;
  const scope = result.cacheScope === 'public' || result.cacheScope === 'private' ? result.cacheScope : undefined;
  return { ttlMs: ttl, scope };
}

/** Pages of one listing: the list is as fresh as its least fresh page, and private if any page is. */
export function mergeCacheHints(a: CacheHint | undefined, b: CacheHint | undefined): CacheHint | undefined {
  if (!a || !b) return a ?? b;
  const scope = a.scope === 'private' || b.scope === 'private' ? 'private' : a.scope ?? b.scope;
  return { ttlMs: Math.min(a.ttlMs, b.ttlMs), scope };
}

/** Keep the items `read` accepts; report the others by position. */
function readAll<T>(items: unknown[], what: string, read: (item: Obj) => T | undefined): { items: T[]; problems: string[] } {
  const kept: T[] = [];
  const problems: string[] = [];
  items.forEach((item, index) => {
    const entry = isObj(item) ? read(item) : undefined;
    if (entry === undefined) problems.push(`${what} #${index + 1} is malformed and is not listed`);
    else kept.push(entry);
  });
  return { items: kept, problems };
}

function readResource(item: Obj): ResourceEntry | undefined {
  const uri = str(item.uri);
  if (uri === undefined) return undefined;
  const size = typeof item.size === 'number' ? item.size : undefined;
  return { uri, name: str(item.name), title: str(item.title), mimeType: str(item.mimeType), description: str(item.description), size, icons: parseIcons(item.icons) };
}

function readTemplate(item: Obj): TemplateEntry | undefined {
  const uriTemplate = str(item.uriTemplate);
  if (uriTemplate === undefined) return undefined;
  return { uriTemplate, name: str(item.name), title: str(item.title), mimeType: str(item.mimeType), description: str(item.description), icons: parseIcons(item.icons) };
}

function readPrompt(item: Obj): PromptEntry | undefined {
  const name = str(item.name);
  if (name === undefined) return undefined;
  const args = Array.isArray(item.arguments) ? item.arguments.filter(isObj) : [];
  return {
    name,
    title: str(item.title),
    description: str(item.description),
    arguments: args
      .filter((a) => typeof a.name === 'string')
      .map((a) => ({ name: String(a.name), title: str(a.title), description: str(a.description), required: a.required === true })),
    icons: parseIcons(item.icons),
  };
}

export const TOOLS: ListSpec<ToolEntry> = {
  method: 'tools/list',
  itemsKey: 'tools',
  capability: 'tools',
  listChanged: 'notifications/tools/list_changed',
  parse: (items) => {
    const { tools, problems } = parseTools(items);
    return { items: tools, problems };
  },
};

export const RESOURCES: ListSpec<ResourceEntry> = {
  method: 'resources/list',
  itemsKey: 'resources',
  capability: 'resources',
  listChanged: 'notifications/resources/list_changed',
  parse: (items) => readAll(items, 'resource', readResource),
};

export const RESOURCE_TEMPLATES: ListSpec<TemplateEntry> = {
  method: 'resources/templates/list',
  itemsKey: 'resourceTemplates',
  capability: 'resources',
  listChanged: 'notifications/resources/list_changed',
  parse: (items) => readAll(items, 'resource template', readTemplate),
};

export const PROMPTS: ListSpec<PromptEntry> = {
  method: 'prompts/list',
  itemsKey: 'prompts',
  capability: 'prompts',
  listChanged: 'notifications/prompts/list_changed',
  parse: (items) => readAll(items, 'prompt', readPrompt),
};
