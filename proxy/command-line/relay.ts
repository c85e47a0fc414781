/**
 * The command line of standing between a client and its server (issue 13, docs/contract.md):
 * `--tap [--attach URL|PORT] [--label NAME] -- <command>`, `--gateway [--gateway-port N]
 * [--gateway-idle MS] [--gateway-max-sessions N] [--gateway-no-auth] <target>` and `--rules FILE` (the UI, the
 * headless modes, the tap and the gateway). Specs in the shape of headless.ts's
 * HEADLESS_OPTIONS, which the parser in options.ts merges.
 */
import type { Rule } from '../../lib/model/rules.ts';
import { isLoopbackAddress } from '../listen/security.ts';
import type { OtelCliOptions } from '../otel/settings.ts';

export interface RelayOptions {
  /** `--tap`: relay a host's stdio session byte for byte, recording it (tap.ts). */
  tap: boolean;
  /**
   * `--attach URL|PORT`: the running Loupe to show the tapped session in, as its origin
   * (`http://127.0.0.1:PORT`). Never with its token: that comes from MCP_LOUPE_TOKEN or the state file.
   */
  attach?: string;
  /** `--no-attach`: do not look for a running Loupe through the state file. */
  noAttach: boolean;
  /** `--label NAME`: the tapped or gateway sessions' name in Loupe (default: the host's clientInfo). */
  label?: string;
  /** `--gateway`: serve the target as Streamable HTTP on 127.0.0.1 (gateway.ts). */
  gateway: boolean;
  /** `--gateway-port N`; undefined: a free port near 6290. */
  gatewayPort?: number;
  /** `--gateway-idle MS`: a client session idle this long is closed and its server stopped. */
  gatewayIdleMs?: number;
  /** `--gateway-max-sessions N`: more client sessions at once are refused with a clear error. */
  gatewayMaxSessions?: number;
  /** `--gateway-no-auth`: the gateway asks for no bearer token (warned about on stderr). */
  gatewayNoAuth?: boolean;
  /** `--rules FILE`: interception rules (docs/rules.md). */
  rules?: string;
  /** The rules of that file, once cli.ts read and checked it (before any mode starts). */
  loaded?: { rules: Rule[]; source: string };
}

export const DEFAULT_GATEWAY_IDLE_MS = 10 * 60_000;
export const DEFAULT_GATEWAY_MAX_SESSIONS = 16;

export function emptyRelay(): RelayOptions {
  return { tap: false, noAttach: false, gateway: false };
}

type HasRelay = { relay: RelayOptions };
type Apply = (options: HasRelay, value: string, flag: string) => string | undefined;
export interface RelaySpec {
  takesValue: boolean;
  apply: Apply;
}

const flag = (apply: (o: RelayOptions) => void): RelaySpec => ({ takesValue: false, apply: (o) => void apply(o.relay) });
const text = (set: (o: RelayOptions, v: string) => void): RelaySpec => ({
  takesValue: true,
  apply: (o, v, f) => (v.trim() === '' ? `${f} needs a value.` : void set(o.relay, v)),
});
const whole = (set: (o: RelayOptions, n: number) => void, min: number, max: number, what: string): RelaySpec => ({
  takesValue: true,
  apply: (o, v, f) => {
    const n = /^\d{1,9}$/.test(v) ? Number(v) : NaN;
    if (!(n >= min && n <= max)) return `${f} expects ${what} from ${min} to ${max}, got ${JSON.stringify(v)}.`;
    set(o.relay, n);
    return undefined;
  },
});

/** The environment variable `--attach` takes Loupe's token from (issue 21: never from argv). */
export const TOKEN_ENV = 'MCP_LOUPE_TOKEN';

/**
 * `--attach` takes where Loupe listens, not its token: a command line is readable by every user of
 * the machine (`ps`, /proc/PID/cmdline), and with the token anyone could open Loupe's /ws and run
 * commands. A URL with `token=` in it is refused rather than used: it has leaked already.
 */
function applyAttach(o: HasRelay, value: string, f: string): string | undefined {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : undefined;
  let url: URL | undefined;
  try {
    url = new URL(port !== undefined ? `http://127.0.0.1:${port}/` : value);
  } catch {
    url = undefined;
  }
  if (url && (url.searchParams.has('token') || /token=/i.test(url.hash))) {
    return (
      `${f} was given Loupe's token in its URL, and a command line is readable by every user of this machine (ps, /proc/PID/cmdline): ` +
      `that token has leaked, so stop that Loupe and start it again for a new one. Then give ${f} only the address (http://127.0.0.1:PORT/ or the port): ` +
      `the tap reads the token from Loupe's state file (written for your user only) or from the environment variable ${TOKEN_ENV}.`
    );
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'ws:') || !isLoopbackAddress(url.hostname) || url.port === '' || (port !== undefined && (port < 1 || port > 65535))) {
    return `${f} expects the address of a Loupe on this machine, as it printed it but without the token (http://127.0.0.1:PORT/) or just its port, got ${JSON.stringify(value)}.`;
  }
  o.relay.attach = `http://${url.host}`;
  return undefined;
}

export const RELAY_OPTIONS = new Map<string, RelaySpec>([
  ['--tap', flag((o) => (o.tap = true))],
  ['--attach', { takesValue: true, apply: applyAttach }],
  ['--no-attach', flag((o) => (o.noAttach = true))],
  ['--label', text((o, v) => (o.label = v.trim()))],
  ['--gateway', flag((o) => (o.gateway = true))],
  ['--gateway-port', whole((o, n) => (o.gatewayPort = n), 0, 65535, 'a port')],
  ['--gateway-idle', whole((o, n) => (o.gatewayIdleMs = n), 1000, 86_400_000, 'milliseconds')],
  ['--gateway-max-sessions', whole((o, n) => (o.gatewayMaxSessions = n), 1, 1000, 'a number')],
  ['--gateway-no-auth', flag((o) => (o.gatewayNoAuth = true))],
  ['--rules', text((o, v) => (o.rules = v))],
]);

export const RELAY_USAGE = `Between a client and its server (docs/rules.md for --rules):
  mcp-loupe --tap [--attach <url|port>] [--label <name>] [--record <file>] [--rules <file>] -- <command> [args...]
                                  put in a host's config instead of the server command: relays its stdio
                                  byte for byte and shows the session in a running Loupe (found through its
                                  state file, or --attach http://127.0.0.1:PORT/ with the token in the
                                  environment variable MCP_LOUPE_TOKEN, never on the command line; --no-attach: never)
  mcp-loupe --gateway [--gateway-port <n>] [--gateway-idle <ms>] [--gateway-max-sessions <n>] [--gateway-no-auth] <target>
                                  serve the target (a command or a URL) as Streamable HTTP on 127.0.0.1 for any
                                  MCP client; each client session is a session in the page (idle ones closed
                                  after 10 minutes by default; at most 16 at once). Clients send the token it
                                  prints (Authorization: Bearer …), new at every launch; --gateway-no-auth asks
                                  for none (then anyone on this machine can start the target as you)
  --rules <file>                  interception rules (delay, drop, errors, breakpoints, permission gates) for
                                  the page, the modes without a browser, the tap and the gateway
`;

/** Options that only make sense together. */
export function checkRelay(o: { relay: RelayOptions; target: string[]; config?: string; headlessMode?: string }): string | undefined {
  const r = o.relay;
  if (r.tap && r.gateway) return '--tap and --gateway cannot be combined: the tap is for a host that starts the server itself, the gateway for clients that connect over HTTP.';
  if (r.tap && o.headlessMode !== undefined) return `--tap cannot be combined with --${o.headlessMode}.`;
  if (r.gateway && o.headlessMode !== undefined) return `--gateway cannot be combined with --${o.headlessMode}.`;
  if (r.tap && o.config !== undefined) return '--tap relays one server command: give it after --, not --config.';
  if (r.tap && o.target.length === 0) return '--tap needs the server command after --: mcp-loupe --tap -- node build/index.js';
  if (r.tap && /^https?:\/\//i.test(o.target[0] ?? '')) return '--tap relays a stdio server; for a URL, use --gateway.';
  if (!r.tap && (r.attach !== undefined || r.noAttach)) return '--attach and --no-attach are for --tap.';
  if (!r.gateway && (r.gatewayPort !== undefined || r.gatewayIdleMs !== undefined || r.gatewayMaxSessions !== undefined || r.gatewayNoAuth)) {
    return '--gateway-port, --gateway-idle, --gateway-max-sessions and --gateway-no-auth are for --gateway.';
  }
  if (r.label !== undefined && !r.tap && !r.gateway) return '--label names a tapped or gateway session: add --tap or --gateway.';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
/*
 * The command line of OpenTelemetry (issue 28, docs/contract.md): `--otlp URL`,
 * `--otlp-protocol http/json|http/protobuf`, `--otlp-content`, `--no-otlp-traceparent` and
 * `--otlp-receive`. Specs in the shape of the relay's above, which the parser in options.ts merges; what
 * they mean together with the OTEL_* environment and the workspace is proxy/otel/settings.ts.
 */

type HasOtel = { otel?: OtelCliOptions };
export interface OtelSpec {
  takesValue: boolean;
  apply: (options: HasOtel, value: string, flag: string) => string | undefined;
}

const otel = (o: HasOtel): OtelCliOptions => (o.otel ??= { content: false, traceparent: true, receive: false });
const otelFlag = (set: (o: OtelCliOptions) => void): OtelSpec => ({ takesValue: false, apply: (o) => void set(otel(o)) });

function applyUrl(o: HasOtel, value: string, f: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${f} expects the OTLP/HTTP endpoint of a collector (http://localhost:4318), got ${JSON.stringify(value)}.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${f} expects an http:// or https:// endpoint (OTLP over HTTP; gRPC is not supported), got ${url.protocol}.`;
  otel(o).url = value;
  return undefined;
}

function applyProtocol(o: HasOtel, value: string, f: string): string | undefined {
  if (value !== 'http/json' && value !== 'http/protobuf') return `${f} expects http/json or http/protobuf, got ${JSON.stringify(value)}.`;
  otel(o).protocol = value;
  return undefined;
}

export const OTEL_OPTIONS = new Map<string, OtelSpec>([
  ['--otlp', { takesValue: true, apply: applyUrl }],
  ['--otlp-protocol', { takesValue: true, apply: applyProtocol }],
  ['--otlp-content', otelFlag((o) => (o.content = true))],
  ['--no-otlp-traceparent', otelFlag((o) => (o.traceparent = false))],
  ['--otlp-receive', otelFlag((o) => (o.receive = true))],
]);

export const OTEL_USAGE = `OpenTelemetry (the UI; also OTEL_EXPORTER_OTLP_ENDPOINT / _TRACES_ENDPOINT / _HEADERS, as the SDKs read them):
  --otlp <url>                    export every session's spans over OTLP/HTTP (http://localhost:4318, or a …/v1/traces URL)
  --otlp-protocol http/protobuf|http/json     the encoding (default: OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf)
  --otlp-content                  put tool arguments and results in the spans (off: names, ids and errors only)
  --no-otlp-traceparent           do not put traceparent in params._meta of the requests Loupe sends
  --otlp-receive                  without exporting: show the spans servers send to Loupe's /v1/traces under their calls
`;

/** The OTLP options trace the UI's sessions and the gateway's: said, not dropped, in a mode without a browser or the tap. */
export function checkOtel(o: { otel?: OtelCliOptions; tap: boolean; headlessMode?: string }): string | undefined {
  if (!o.otel) return undefined;
  if (o.tap) return 'The --otlp options trace the sessions of Loupe’s UI and of its gateway: for a tapped host, give them to the Loupe it attaches to.';
  if (o.headlessMode !== undefined) return `The --otlp options trace the sessions of Loupe’s UI and of its gateway, not --${o.headlessMode}.`;
  return undefined;
}
