/**
 * The proxy's model of the workspace (issue 9): one entry per session — its name, its config as
 * written, what is secret, Loupe's extras — plus the file's inputs and notes. The config as
 * written is all the page ever sees: a secret value typed in the page becomes an `${input:ID}`
 * reference here, and its value lives only in `inputValues` (proxy memory, never sent or saved).
 */
import { headerSecretValues, mayCarryCredential } from '../../lib/trace/secret-mask.ts';
import type { ServerConfig } from '../../lib/model/server-config.ts';
import type { ClientCapabilityChoice, WorkspaceState } from '../../lib/wire/wire.ts';
import { isReference, referencesOf, resolveReferences, secretInputId } from '../../lib/workspace/references.ts';
import type { InputDecl, SavedCall, SavedQuery, Workspace, WorkspaceServer } from '../../lib/workspace/types.ts';
import type { SessionView } from '../session/session.ts';
import type { Rule } from '../../lib/model/rules.ts';
import type { Collection } from '../../lib/collections/schema.ts';
import type { EvalFile } from '../../lib/evals/schema.ts';
import type { WorkspaceOtlp } from '../../lib/otel/workspace-otlp.ts';

export interface ServerEntry {
  name: string;
  /** As written: `${input:}` / `${env:}` references kept, secret values replaced by references. */
  config: ServerConfig;
  disabled: boolean;
  secretEnv: string[];
  secretHeaders: string[];
  clientCapabilities?: ClientCapabilityChoice;
  savedCalls: SavedCall[];
  /** The doctor's tool hashes from the last run (or the file), by tool name (issue 14). */
  toolPins?: Record<string, string>;
  /** Keys of the entry Loupe does not use (autoApprove, timeout…): written back as they were. */
  other?: Record<string, unknown>;
  /** A session Loupe watches (a tap, a gateway client, issue 13): never saved as a server. */
  relay?: boolean;
}

export interface EntryInit {
  config: ServerConfig;
  name?: string;
  disabled?: boolean;
  secretEnv?: string[];
  secretHeaders?: string[];
  clientCapabilities?: ClientCapabilityChoice;
  savedCalls?: SavedCall[];
  toolPins?: Record<string, string>;
  other?: Record<string, unknown>;
  relay?: boolean;
}

export class WorkspaceModel {
  /** The interception rules in force (issue 13; the engine sets them), saved under `x-mcp-loupe.rules`. */
  rules: Rule[] = [];
  /** Named History queries (issue 26), saved under `x-mcp-loupe.queries`. */
  savedQueries: SavedQuery[] = [];
  /** Test collections (issue 27), saved under `x-mcp-loupe.collections`. */
  collections: Collection[] = [];
  /** Model evals (issue 27), saved under `x-mcp-loupe.evals`. */
  evals?: EvalFile;
  /** Tracing (issue 28), kept as the file said it under `x-mcp-loupe.otlp` (read at launch). */
  otlp?: WorkspaceOtlp;
  /** Absolute path of the file read (--config) or last saved to. */
  path?: string;
  flavour: Workspace['flavour'] = 'mcpServers';
  notes: string[] = [];
  /** sha-256 of the file's text when Loupe last read or wrote it (save-workspace's conflict check). */
  diskHash?: string;
  private inputs: InputDecl[] = [];
  /** Top-level keys of the file Loupe does not use, written back as they were. */
  private other?: Record<string, unknown>;
  private readonly inputValues = new Map<string, string>();
  /** By session id, in the order the sessions were created (the file's order). */
  private readonly entries = new Map<string, ServerEntry>();

  /** `env`: Loupe's own environment, for `${env:X}`. */
  constructor(private readonly env: Record<string, string | undefined>) {}

  /** The file's own parts (its servers are added one by one, as sessions are created). */
  load(workspace: Workspace, path: string | undefined, hash: string | undefined): void {
    this.flavour = workspace.flavour;
    this.other = workspace.other;
    this.inputs = [...workspace.inputs];
    this.savedQueries = [...(workspace.queries ?? [])];
    this.collections = [...(workspace.collections ?? [])];
    this.evals = workspace.evals;
    this.otlp = workspace.otlp;
    this.notes.push(...workspace.notes);
    this.path = path;
    this.diskHash = hash;
  }

  /** Clears `disabled`; true when it was set. */
  enable(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry?.disabled) return false;
    entry.disabled = false;
    return true;
  }

  entry(id: string): ServerEntry | undefined {
    return this.entries.get(id);
  }

  add(id: string, init: EntryInit): ServerEntry {
    const wanted = init.name ?? init.config.name ?? deriveName(init.config);
    const name = this.uniqueName(wanted);
    if (name !== wanted) this.notes.push(`Server "${wanted}": a server of that name exists already; this one is named "${name}".`);
    const secretEnv = init.secretEnv ?? [];
    // Said nothing of (a URL and --header on the command line): every header that may carry a credential is one.
    const secretHeaders = init.secretHeaders ?? (init.config.kind === 'http' ? Object.keys(init.config.headers).filter(mayCarryCredential) : []);
    const entry: ServerEntry = {
      name,
      config: this.absorbSecrets(name, { ...init.config, name }, secretEnv, secretHeaders),
      disabled: init.disabled ?? false,
      secretEnv,
      secretHeaders,
      clientCapabilities: init.clientCapabilities,
      savedCalls: init.savedCalls ?? [],
      ...(init.toolPins ? { toolPins: init.toolPins } : {}),
      ...(init.other ? { other: init.other } : {}),
      ...(init.relay ? { relay: true } : {}),
    };
    this.entries.set(id, entry);
    return entry;
  }

  /** An edit from the page: a secret sent back as its reference text keeps the value held for it. */
  update(id: string, change: Pick<EntryInit, 'config' | 'secretEnv' | 'secretHeaders' | 'clientCapabilities'>): ServerEntry | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const wanted = change.config.name ?? entry.name;
    const name = wanted === entry.name ? wanted : this.uniqueName(wanted, id);
    entry.secretEnv = change.secretEnv ?? entry.secretEnv;
    entry.secretHeaders = change.secretHeaders ?? entry.secretHeaders;
    entry.name = name;
    entry.config = this.absorbSecrets(name, { ...change.config, name }, entry.secretEnv, entry.secretHeaders);
    if (change.clientCapabilities) entry.clientCapabilities = change.clientCapabilities;
    return entry;
  }

  remove(id: string): void {
    this.entries.delete(id);
  }

  setSavedCalls(id: string, calls: SavedCall[]): boolean {
    const entry = this.entries.get(id);
    if (entry) entry.savedCalls = calls;
    return entry !== undefined;
  }

  setSavedQueries(queries: SavedQuery[]): void {
    this.savedQueries = queries;
  }

  /** The whole list, as lib/collections/read.ts read it (the caller checked it). */
  setCollections(collections: Collection[]): void {
    this.collections = collections;
  }

  /** As lib/evals/schema.ts read them (the caller checked); none: no case. */
  setEvals(evals: EvalFile | undefined): void {
    this.evals = evals !== undefined && evals.cases.length > 0 ? evals : undefined;
  }

  /** The doctor saw these tools (hash pinning): kept for its next run, and saved with the workspace. */
  setToolPins(id: string, pins: Record<string, string>): void {
    const entry = this.entries.get(id);
    if (entry) entry.toolPins = pins;
  }

  provideInputs(values: Record<string, string>): void {
    for (const [id, value] of Object.entries(values)) this.inputValues.set(id, value);
  }

  /** The config to connect with: references replaced by values; `missing` = input ids still unanswered. */
  resolve(id: string): { config: ServerConfig; missing: string[] } | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    return resolveReferences(entry.config, { env: this.env, inputs: Object.fromEntries(this.inputValues) });
  }

  /**
   * Every value the page must never see of this session: its secrets, the inputs it uses, and the
   * values of its headers that may be credentials, marked or not (lib/trace/secret-mask.ts).
   */
  secretValuesOf(id: string): string[] {
    const entry = this.entries.get(id);
    if (!entry) return [];
    const resolved = this.resolve(id)?.config;
    const out = referencesOf(entry.config).inputs.map((input) => this.inputValues.get(input)).filter((v): v is string => v !== undefined && v !== '');
    if (resolved?.kind === 'stdio') for (const name of entry.secretEnv) out.push(resolved.env[name] ?? '');
    if (resolved?.kind === 'http') {
      for (const name of entry.secretHeaders) out.push(resolved.headers[name] ?? '');
      out.push(...headerSecretValues(resolved.headers));
    }
    return out.filter((v) => v !== '');
  }

  /** What the page is shown of the session (`missing`: the inputs it waits for, when it does). */
  view(id: string, missing: string[] = []): SessionView | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const waiting = missing.length > 0 ? { waitingForInputs: missing, note: `Waiting for input ${missing.join(', ')}: enter ${missing.length > 1 ? 'them' : 'it'} to connect.` } : {};
    return {
      name: entry.name,
      config: entry.config,
      disabled: entry.disabled || undefined,
      secretEnv: entry.secretEnv.length > 0 ? entry.secretEnv : undefined,
      secretHeaders: entry.secretHeaders.length > 0 ? entry.secretHeaders : undefined,
      ...waiting,
    };
  }

  state(): WorkspaceState {
    const savedCalls: Record<string, SavedCall[]> = {};
    const needed = new Set<string>();
    for (const [id, entry] of this.entries) {
      if (entry.savedCalls.length > 0) savedCalls[id] = entry.savedCalls;
      if (entry.disabled) continue;
      for (const input of referencesOf(entry.config).inputs) if (!this.inputValues.has(input)) needed.add(input);
    }
    const inputsNeeded = [...needed].map((id) => this.declaration(id));
    const queries = this.savedQueries.length > 0 ? { savedQueries: [...this.savedQueries] } : {};
    const collections = this.collections.length > 0 ? { collections: [...this.collections] } : {};
    return { path: this.path, flavour: this.flavour, savedCalls, ...queries, ...collections, ...(this.evals ? { evals: this.evals } : {}), inputsNeeded, notes: [...this.notes] };
  }

  /** What save-workspace writes: configs as written (secrets as references), the inputs they use declared. */
  toWorkspace(): Workspace {
    const servers: WorkspaceServer[] = [...this.entries.values()].filter((e) => !e.relay).map((e) => ({
      name: e.name,
      config: e.config,
      disabled: e.disabled,
      secretEnv: e.secretEnv,
      secretHeaders: e.secretHeaders,
      extras: {
        ...(e.clientCapabilities ? { clientCapabilities: e.clientCapabilities } : {}),
        ...(e.savedCalls.length > 0 ? { savedCalls: e.savedCalls } : {}),
        ...(e.toolPins && Object.keys(e.toolPins).length > 0 ? { toolPins: e.toolPins } : {}),
      },
      ...(e.other ? { other: e.other } : {}),
    }));
    // Every input a server refers to is declared in the file (one referred to but never declared, as
    // a registry entry's secret argument is, gets a masked prompt: Loupe cannot tell it is not secret).
    const referred = servers.flatMap((server) => referencesOf(server.config).inputs);
    const inputs = [...this.inputs, ...[...new Set(referred)].filter((id) => !this.inputs.some((i) => i.id === id)).map((id) => this.declaration(id))];
    return { flavour: this.flavour, servers, inputs, notes: [], ...(this.other ? { other: this.other } : {}), ...(this.rules.length > 0 ? { rules: this.rules } : {}), ...(this.savedQueries.length > 0 ? { queries: this.savedQueries } : {}), ...(this.collections.length > 0 ? { collections: this.collections } : {}), ...(this.evals ? { evals: this.evals } : {}), ...(this.otlp ? { otlp: this.otlp } : {}) };
  }

  /** How an input is asked for: as declared, else as a masked prompt named by its id. */
  private declaration(id: string): InputDecl {
    return this.inputs.find((i) => i.id === id) ?? { id, type: 'promptString', description: id, password: true };
  }

  private uniqueName(wanted: string, exceptId?: string): string {
    const taken = new Set([...this.entries].filter(([id]) => id !== exceptId).map(([, e]) => e.name));
    if (!taken.has(wanted)) return wanted;
    let n = 2;
    while (taken.has(`${wanted}-${n}`)) n++;
    return `${wanted}-${n}`;
  }

  /** Secret values typed as values become `${input:ID}` references; the value is held in memory. */
  private absorbSecrets(server: string, config: ServerConfig, secretEnv: string[], secretHeaders: string[]): ServerConfig {
    if (config.kind === 'stdio') return { ...config, env: this.absorb(server, config.env, secretEnv) };
    return { ...config, headers: this.absorb(server, config.headers, secretHeaders) };
  }

  private absorb(server: string, values: Record<string, string>, secret: string[]): Record<string, string> {
    const out = { ...values };
    for (const key of secret) {
      const value = out[key];
      // A reference is kept as written (its value is resolved at connect time).
      if (value === undefined || isReference(value, this.inputs)) continue;
      const id = secretInputId(server, key);
      this.inputValues.set(id, value);
      if (!this.inputs.some((i) => i.id === id)) this.inputs.push({ id, type: 'promptString', description: `${key} for ${server}`, password: true });
      out[key] = `\${input:${id}}`;
    }
    return out;
  }
}

/** A name for a server given without one: the package of `npx -y pkg` / `uvx pkg`, else the command's base name, or the URL's host. */
export function deriveName(config: ServerConfig): string {
  if (config.kind === 'http') {
    try {
      return new URL(config.url).hostname || 'server';
    } catch {
      return 'server';
    }
  }
  const base = (word: string) => word.split(/[\\/]/).pop() ?? word;
  const runner = /^(npx|uvx|bunx|pnpx|pipx)$/.test(base(config.command).replace(/\.(cmd|exe)$/i, ''));
  const word = runner ? config.args.find((a) => !a.startsWith('-')) : config.args.find((a) => /\.(m?js|cjs|ts|py)$/.test(a)) ?? config.command;
  const name = base(word ?? config.command).replace(/@[^@/]*$/, '').replace(/\.(m?js|cjs|ts|py)$/, '');
  return name || 'server';
}
