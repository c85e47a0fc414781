/**
 * Tool definitions for LLM APIs (issue 14, point 5): a server's tools — or a whole workspace's — as
 * an OpenAI `tools` array, an Anthropic `tools` array or Gemini `functionDeclarations`, cleaned the
 * way doctor-providers.ts describes, so that a host author can paste them into a request. Hosts
 * that forward MCP tools to a model do this by hand; every rename and every change to a schema is
 * said in `notes`, because a cleaned schema can mean something slightly different from the
 * server's own.
 *
 * Names: one server keeps its tools' names (cleaned to the provider's pattern); several are
 * namespaced `server__tool`, the usual convention of agent frameworks, so that two servers' `search`
 * tools stay apart.
 */
import { cleanName, providerAnalysis } from './providers.ts';
import { isObj, type SchemaAnalysis } from './provider-clean.ts';
import { PROFILES, type Provider } from './provider-rules.ts';

export type ExportFormat = 'openai' | 'anthropic' | 'gemini';

export interface ExportResult {
  definitions: unknown;
  notes: string[];
}

/** How many characters of the server's name a namespaced name keeps when the whole is too long. */
const SERVER_PART = 16;

interface Named {
  name: string;
  description?: string;
  schema: SchemaAnalysis;
  strict?: boolean;
}

/** `server__tool` or `tool`, made to fit the provider's name rule, and unique among `taken`. */
function exportedName(server: string, tool: string, several: boolean, provider: Provider, taken: Set<string>, notes: string[]): string {
  const max = PROFILES[provider].name.maxLength;
  const asked = several ? `${server}__${tool}` : tool;
  const serverPart = cleanName(server, provider, true) || 'server';
  const toolPart = cleanName(tool, provider, true) || 'tool';
  let name = several ? cleanName(`${serverPart}__${toolPart}`, provider) : cleanName(tool, provider);
  // Too long: shorten the server's part first, so that the tool's own name survives.
  if (several && [...serverPart].length > SERVER_PART && `${serverPart}__${toolPart}`.length > max) {
    name = cleanName(`${serverPart.slice(0, SERVER_PART)}__${toolPart}`, provider);
  }
  if (name !== asked) notes.push(`${q(asked)} is exported as ${q(name)}: ${PROFILES[provider].label} accepts ${PROFILES[provider].name.words}.`);
  if (taken.has(name)) {
    let n = 2;
    while (taken.has(`${name.slice(0, max - String(n).length - 1)}_${n}`)) n++;
    const unique = `${name.slice(0, max - String(n).length - 1)}_${n}`;
    notes.push(`Two tools would both be called ${q(name)}; the later one (${q(asked)}) is exported as ${q(unique)}.`);
    name = unique;
  }
  taken.add(name);
  return name;
}

const q = (s: string) => JSON.stringify(s);

function describe(tool: Record<string, unknown>): string | undefined {
  for (const field of ['description', 'title']) {
    const value = tool[field];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/** OpenAI: strict when the schema already meets strict mode, so that nothing changes meaning. */
function openaiSchema(inputSchema: unknown): { schema: SchemaAnalysis; strict: boolean } {
  const strict = providerAnalysis('openai-strict', inputSchema);
  if (strict.violations.length === 0) return { schema: strict, strict: true };
  return { schema: providerAnalysis('openai', inputSchema), strict: false };
}

function collect(servers: readonly { name: string; tools: unknown[] }[], format: ExportFormat, notes: string[]): Named[] {
  const provider: Provider = format;
  const several = servers.length > 1;
  if (several) notes.push(`${servers.length} servers are exported together, so every name is "server__tool".`);
  const taken = new Set<string>();
  const out: Named[] = [];
  for (const server of servers) {
    for (const tool of server.tools) {
      if (!isObj(tool) || typeof tool.name !== 'string') {
        notes.push(`Left out a tool of ${q(server.name)} that has no name.`);
        continue;
      }
      const name = exportedName(server.name, tool.name, several, provider, taken, notes);
      const picked = format === 'openai' ? openaiSchema(tool.inputSchema) : { schema: providerAnalysis(provider, tool.inputSchema), strict: undefined };
      const description = describe(tool);
      if (description === undefined && format === 'gemini') notes.push(`${q(name)} has no description, which the Gemini API marks as required.`);
      out.push({ name, description, schema: picked.schema, strict: picked.strict });
    }
  }
  return out;
}

function hasProperties(schema: unknown): boolean {
  return isObj(schema) && isObj(schema.properties) && Object.keys(schema.properties).length > 0;
}

/** "Every tool" or the tools' names, for a note. */
function who(names: readonly string[], all: number): string {
  return names.length === all && all > 1 ? 'Every tool' : names.map(q).join(', ');
}

/** One note per distinct change, naming the tools it was made to (a server's tools share a generator, so their changes repeat). */
function changeNotes(changes: ReadonlyMap<string, string[]>, all: number): string[] {
  const byText = new Map<string, string[]>();
  for (const [name, texts] of changes) for (const text of texts) byText.set(text, [...(byText.get(text) ?? []), name]);
  return [...byText].map(([text, names]) => `${who(names, all)}: ${text}.`);
}

/** The tools of `servers` as `format`'s tool definitions, and every rename and schema change in words. */
export function exportTools(servers: { name: string; tools: unknown[] }[], format: ExportFormat): ExportResult {
  const notes: string[] = [];
  const tools = collect(servers, format, notes);
  const changes = new Map<string, string[]>(tools.map((t) => [t.name, [...t.schema.changes]]));
  const described = (t: Named) => (t.description === undefined ? {} : { description: t.description });
  if (format === 'gemini') {
    const functionDeclarations = tools.map((t) => {
      // `parameters` is optional ("For function with no parameters, this can be left unset", Vertex AI).
      const empty = !hasProperties(t.schema.schema);
      if (empty) changes.get(t.name)!.push('left out "parameters": the tool takes none');
      return { name: t.name, ...described(t), ...(empty ? {} : { parameters: t.schema.schema }) };
    });
    return { definitions: { functionDeclarations }, notes: [...notes, ...changeNotes(changes, tools.length)] };
  }
  notes.push(...changeNotes(changes, tools.length));
  if (format === 'anthropic') return { definitions: tools.map((t) => ({ name: t.name, ...described(t), input_schema: t.schema.schema })), notes };
  const loose = tools.filter((t) => !t.strict).map((t) => t.name);
  if (loose.length > 0) {
    notes.push(`"strict" is false for ${loose.length === tools.length ? 'every tool' : loose.map(q).join(', ')}: their schemas break OpenAI strict-mode rules (run the doctor to see which), and strict mode would refuse them.`);
  }
  return {
    definitions: tools.map((t) => ({ type: 'function', function: { name: t.name, ...described(t), parameters: t.schema.schema, strict: t.strict === true } })),
    notes,
  };
}
