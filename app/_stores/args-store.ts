/**
 * The last arguments used for each tool, per server, kept in localStorage so that they survive a
 * reload. A server is known by its name (from `initialize`) and its launch target, so two servers
 * with tools of the same name do not share arguments.
 */
import type { SessionInfo } from '../../lib/wire/wire.ts';
import { ExternalStore } from './external-store.ts';

const STORAGE_KEY = 'mcp-loupe.tool-args.v1';
/** Arguments larger than this (as JSON) are not remembered. */
const MAX_ARGS_CHARS = 64 * 1024;
const MAX_SERVERS = 30;
const MAX_TOOLS = 300;

type Memory = Record<string, Record<string, unknown>>;

/** The key a server's arguments are kept under. */
export function serverKey(session: Pick<SessionInfo, 'config' | 'serverInfo'>): string {
  const target = session.config.kind === 'stdio' ? [session.config.command, ...session.config.args].join(' ') : session.config.url;
  return `${session.serverInfo?.name ?? '?'} @ ${target}`;
}

/** The snapshot is a version number: it changes whenever anything was remembered or forgotten. */
export class ArgsStore extends ExternalStore<number> {
  private memory: Memory | undefined;

  constructor() {
    super(0);
  }

  recall(server: string, tool: string): unknown {
    return this.load()[server]?.[tool];
  }

  remember(server: string, tool: string, args: unknown): void {
    const text = JSON.stringify(args);
    if (text === undefined || text.length > MAX_ARGS_CHARS) return;
    const memory = this.load();
    const tools = { ...(memory[server] ?? {}) };
    delete tools[tool];
    tools[tool] = JSON.parse(text) as unknown;
    const names = Object.keys(tools);
    for (const old of names.slice(0, Math.max(0, names.length - MAX_TOOLS))) delete tools[old];
    const next: Memory = { ...memory };
    delete next[server];
    next[server] = tools;
    const servers = Object.keys(next);
    for (const old of servers.slice(0, Math.max(0, servers.length - MAX_SERVERS))) delete next[old];
    this.save(next);
  }

  forget(server: string, tool: string): void {
    const memory = this.load();
    if (memory[server]?.[tool] === undefined) return;
    const tools = { ...memory[server] };
    delete tools[tool];
    this.save({ ...memory, [server]: tools });
  }

  private load(): Memory {
    if (this.memory) return this.memory;
    try {
      const parsed: unknown = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '{}');
      this.memory = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Memory) : {};
    } catch {
      this.memory = {};
    }
    return this.memory;
  }

  private save(memory: Memory): void {
    this.memory = memory;
    this.state += 1;
    try {
      window.localStorage.setItem(STORAGE_KEY, JSON.stringify(memory));
    } catch {
      // Storage full or disabled: remembered for this tab only.
    }
    this.notify();
  }
}
