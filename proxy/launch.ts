/**
 * Starts Loupe in this process: listen first (the page can load while the SDK is still being
 * imported), then create the primary session. Used by the CLI and by the integration tests.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { ServerConfig } from '../lib/model/server-config.ts';
import type { Workspace } from '../lib/workspace/workspace.ts';
import type { Hub } from './faces/web/hub.ts';
import type { OAuthOptions } from './oauth/provider/provider.ts';
import { newToken } from './listen/security.ts';
import { createLoupeServer } from './faces/web/server.ts';
import type { Rule } from '../lib/model/rules.ts';
import type { GatewayOptions, RunningGateway } from './faces/gateway/gateway.ts';
import type { WatchPlan, Watching } from './system/watch.ts';
import type { OtelCliOptions } from './otel/settings.ts';
import type { StartedTracing } from './otel/start.ts';

export { VERSION } from './version.ts';
import { VERSION } from './version.ts';
export const DEFAULT_PORT = 6280;
const PORT_TRIES = 20;

export interface LaunchOptions {
  /** The server to connect at start; none means "no session yet". */
  config?: ServerConfig;
  /**
   * The servers of a workspace file (--config, issue 9): each gets a session; those named in
   * `start` (default: every one not disabled) connect at once, in parallel. `path` is resolved
   * against `cwd`.
   */
  workspace?: { path: string; text: string; workspace: Workspace; start?: string[] };
  /** The folder relative save paths are resolved against (default process.cwd()). */
  cwd?: string;
  /** Loupe's environment for `${env:X}` references (default process.env). */
  env?: Record<string, string | undefined>;
  /** Exact port (0 = any free one); undefined = the first free one from 6280. */
  port?: number;
  host?: string;
  /** Host names accepted besides loopback (only with an explicit non-loopback `host`). */
  extraHosts?: string[];
  token?: string;
  /** Folder of the static UI; defaults to `out/` of this package. */
  uiRoot?: string;
  /** Events kept per session (default 50 000). */
  traceLimit?: number;
  /** How long the primary session's `initialize` may take (`--connect-timeout`; default 30 s). */
  connectTimeoutMs?: number;
  /** `--record FILE`: write each session's trace as JSONL while it runs (several servers: one file each). */
  record?: string;
  /** The command line's OAuth options (issue 11), for every session it starts. */
  oauth?: OAuthOptions;
  rememberCredentials?: boolean;
  /** `--rules FILE` (issue 13): the interception rules in force from the start. */
  rules?: { rules: Rule[]; source: string };
  /**
   * `--gateway` (issue 13): the target is not connected by Loupe; it is served as Streamable HTTP
   * on its own port, one upstream connection per client session (gateway.ts). `config` is the target.
   */
  gateway?: Omit<GatewayOptions, 'config'>;
  /** Called once the gateway listens, with its endpoint (`http://127.0.0.1:PORT/mcp`) and its token (none under `noAuth`). */
  onGateway?: (gateway: { url: string; token?: string }) => void;
  /**
   * Called as soon as the port is listening, before the MCP machinery has loaded: the CLI prints
   * the URL here, so the page can start loading while the SDK is still being imported.
   */
  onListening?: (where: { url: string; origin: string; port: number; token: string }) => void;
  /** `--watch` (issue 25): restart the primary stdio session when these files change. */
  watch?: WatchPlan;
  /** Told of each restart `watch` makes (the CLI prints it), and of a watch that failed. */
  onWatch?: (line: string) => void;
  /** `--otlp` and its options (issue 28); with the OTEL_EXPORTER_OTLP_* variables of `env`, they turn tracing on. */
  otel?: OtelCliOptions;
  /** Told what tracing does (where it exports, a failure), once each. */
  onOtel?: (line: string) => void;
}

export interface RunningLoupe {
  url: string;
  origin: string;
  port: number;
  token: string;
  hub: Hub;
  /** The gateway's endpoint, when launched with `gateway`. */
  gatewayUrl?: string;
  /** The bearer token its clients send (none under `gateway.noAuth`). */
  gatewayToken?: string;
  close(): Promise<void>;
}

export function defaultUiRoot(): string {
  // dist/proxy/launch.js → ../../out ; proxy/launch.ts (tests) → ../out
  const here = fileURLToPath(new URL('.', import.meta.url));
  return fileURLToPath(new URL(here.includes('/dist/') || here.includes('\\dist\\') ? '../../out/' : '../out/', import.meta.url));
}

function listen(server: import('node:http').Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      const address = server.address();
      resolve(address && typeof address === 'object' ? address.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

async function listenNear(server: import('node:http').Server, port: number | undefined, host: string): Promise<number> {
  if (port !== undefined) return listen(server, port, host);
  for (let p = DEFAULT_PORT; p < DEFAULT_PORT + PORT_TRIES; p++) {
    try {
      return await listen(server, p, host);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  return listen(server, 0, host);
}

/**
 * The hub's module graph a part at a time, with a turn of the event loop between parts. Node 22
 * loads the whole graph of one `import()` without yielding (Node 20 yields between files): in one
 * piece, the hub's 340 modules held the first page request back by 130 ms on Node 22. In parts, a
 * request waits at most for the largest (zod's core, about 27 ms). Each part is one the hub imports
 * anyway, in the order it would; nothing loads that would not have.
 */
const HUB_PARTS: ReadonlyArray<() => Promise<unknown>> = [
  () => import('zod/v4/core'),
  () => import('@modelcontextprotocol/sdk/types.js'),
  () => import('@modelcontextprotocol/sdk/validation/ajv-provider.js'),
  () => import('@modelcontextprotocol/sdk/server/zod-json-schema-compat.js'),
  () => import('@modelcontextprotocol/sdk/client/index.js'),
  () => import('./session/session.ts'),
];

/** Node 20 yields between files by itself, and in parts its process kept ~2 MB more (bench/memory.mjs). */
const LOADS_WITHOUT_YIELDING = Number(process.versions.node.split('.')[0]) >= 22;

async function importInParts(parts: ReadonlyArray<() => Promise<unknown>>): Promise<void> {
  if (!LOADS_WITHOUT_YIELDING) return;
  for (const part of parts) {
    await part();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export async function launch(options: LaunchOptions = {}): Promise<RunningLoupe> {
  const token = options.token ?? newToken();
  const host = options.host ?? '127.0.0.1';
  // The hub (and the SDK, zod and ajv under it: hundreds of modules) is imported once the port
  // listens: started before, its compiling held the 'listening' event back by tens of milliseconds.
  // Nothing asks for it before then: the server answers nothing until it listens.
  let hubPromise: Promise<Hub> | undefined;
  const traced: { on?: StartedTracing; where?: { origin: string; receiverToken: string } } = {};
  const loadHub = async (): Promise<Hub> => {
    await importInParts(HUB_PARTS);
    const [{ Hub }, { DEFAULT_TRACE_LIMITS }, startTracing] = await Promise.all([import('./faces/web/hub.ts'), import('./pipeline/trace-recorder.ts'), tracingStarter(options)]);
    const hub = new Hub({ ...DEFAULT_TRACE_LIMITS, maxEvents: options.traceLimit ?? DEFAULT_TRACE_LIMITS.maxEvents }, {
      connectTimeoutMs: options.connectTimeoutMs,
      cwd: options.cwd,
      env: options.env,
      record: options.record ? { path: options.record, perSession: (options.workspace?.workspace.servers.length ?? 1) > 1 } : undefined,
      oauth: options.oauth,
      rememberCredentials: options.rememberCredentials,
      rules: options.rules,
    });
    // Before anything can reach the hub: the first session's requests are stamped, its server gets the receiver's address.
    if (startTracing && traced.where) traced.on = startTracing(hub.engine, traced.where);
    return hub;
  };
  const hubOnce = () => (hubPromise ??= loadHub());
  const receiver = { token: newToken(32), tracing: () => traced.on?.tracing };
  const { server } = createLoupeServer({ token, uiRoot: options.uiRoot ?? defaultUiRoot(), hub: hubOnce, extraHosts: options.extraHosts, version: VERSION, receiver });
  const port = await listenNear(server, options.port, host);
  const hostForUrl = host === '127.0.0.1' || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const origin = `http://${hostForUrl}:${port}`;
  traced.where = { origin, receiverToken: receiver.token };
  hubOnce().catch(() => undefined);
  options.onListening?.({ url: `${origin}/?token=${token}`, origin, port, token });
  const hub = await hubOnce();
  let gateway: RunningGateway | undefined;
  let watching: Watching | undefined;
  hub.engine.redirectUrl = `${origin}/oauth/callback`;
  if (options.workspace) {
    const { workspace, text, start } = options.workspace;
    const file = { path: path.resolve(options.cwd ?? process.cwd(), options.workspace.path), text };
    hub.openWorkspace(workspace, file, start);
  } else if (options.config && options.gateway) {
    // The gateway's sessions appear as clients connect; Loupe opens none of its own.
    const { startGateway } = await import('./faces/gateway/gateway.ts');
    gateway = await startGateway(hub.engine, { ...options.gateway, config: options.config });
    options.onGateway?.({ url: gateway.url, token: gateway.token });
  } else if (options.config) {
    const session = hub.createSession(options.config);
    hub.primary = session.id;
    if (options.watch) hub.engine.track(session);
    void hub.start(session);
    if (options.watch) {
      const { watchFiles } = await import('./system/watch.ts');
      const plan = options.watch;
      watching = watchFiles(plan, {
        cwd: options.config.kind === 'stdio' ? (options.config.cwd ?? options.cwd ?? process.cwd()) : process.cwd(),
        onChange: (files) => {
          const reason = `${files.length > 3 ? `${files.slice(0, 3).join(', ')} and ${files.length - 3} more` : files.join(', ')} changed`;
          options.onWatch?.(`${reason}: restarting the server`);
          void hub.engine.restart(session, reason);
        },
        onError: (message) => options.onWatch?.(message),
      });
    }
  }
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      watching?.close();
      await gateway?.close();
      await hub.shutdown();
      await traced.on?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    })());
  return { url: `${origin}/?token=${token}`, origin, port, token, hub, gatewayUrl: gateway?.url, gatewayToken: gateway?.token, close };
}

/**
 * Tracing (issue 28) when `--otlp`, the OTEL_EXPORTER_OTLP_* variables or `--otlp-receive` ask for
 * it: its small modules load beside the hub's (the SDK later, in the background); otherwise nothing.
 */
async function tracingStarter(options: LaunchOptions): Promise<((engine: Hub['engine'], where: { origin: string; receiverToken: string }) => StartedTracing | undefined) | undefined> {
  const env = options.env ?? process.env;
  const file = options.workspace?.workspace.otlp;
  if (!options.otel && !file && !env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  const [{ tracingSettings }, { startTracing }] = await Promise.all([import('./otel/settings.ts'), import('./otel/start.ts')]);
  const settings = tracingSettings(options.otel, env, file);
  return settings ? (engine, where) => startTracing(engine, settings, where, options.onOtel ?? (() => undefined)) : undefined;
}
