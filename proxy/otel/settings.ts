/**
 * Whether and where a launch traces (issue 28), from the command line, the OpenTelemetry
 * environment variables as the SDKs read them, and the workspace file's `x-mcp-loupe.otlp`, in
 * that order. The variables' values (an endpoint, `OTEL_EXPORTER_OTLP_HEADERS`) are left to the
 * SDK, which reads them itself: Loupe never copies the headers anywhere, so they cannot reach the
 * page, a trace or a log.
 */
import type { ExportSettings, OtlpProtocol } from './exporter.ts';
import type { WorkspaceOtlp } from '../../lib/otel/workspace-otlp.ts';

export interface OtelCliOptions {
  /** `--otlp URL`: a collector's base URL (`/v1/traces` is added) or its traces URL. */
  url?: string;
  protocol?: OtlpProtocol;
  content: boolean;
  traceparent: boolean;
  /** `--otlp-receive`: the receiver's join without exporting. */
  receive: boolean;
}


export interface TracingSettings {
  /** Exporting, and where; absent: spans only joined in the page. */
  export?: ExportSettings;
  content: boolean;
  traceparent: boolean;
  /** Where the endpoint came from, for the start-up line (never its headers). */
  from?: string;
  /** A setting that could not be used, said once on stderr. */
  warning?: string;
}

/** The traces URL of a base endpoint, as the SDKs make it from OTEL_EXPORTER_OTLP_ENDPOINT. */
export function tracesUrl(base: string): string {
  return /\/v1\/traces\/?$/.test(base) ? base : `${base.replace(/\/+$/, '')}/v1/traces`;
}

function protocolOf(cli: OtelCliOptions | undefined, env: Record<string, string | undefined>, workspace?: WorkspaceOtlp): { protocol: OtlpProtocol; warning?: string } {
  const chosen = cli?.protocol ?? env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? workspace?.protocol;
  if (chosen === undefined || chosen === 'http/protobuf' || chosen === 'http/json') return { protocol: chosen ?? 'http/protobuf' };
  return { protocol: 'http/protobuf', warning: `OTLP protocol ${JSON.stringify(chosen)} is not supported by Loupe (OTLP over HTTP only): sending http/protobuf.` };
}

/** Undefined: tracing is off (nothing of the SDK is loaded). */
export function tracingSettings(cli: OtelCliOptions | undefined, env: Record<string, string | undefined>, workspace?: WorkspaceOtlp): TracingSettings | undefined {
  const { protocol, warning } = protocolOf(cli, env, workspace);
  const content = cli?.content === true || (cli === undefined && workspace?.content === true);
  const traceparent = cli ? cli.traceparent : workspace?.traceparent !== false;
  let exporting: ExportSettings | undefined;
  let from: string | undefined;
  if (cli?.url) [exporting, from] = [{ url: tracesUrl(cli.url), protocol }, '--otlp'];
  else if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT) [exporting, from] = [{ protocol }, env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT'];
  else if (workspace?.endpoint) [exporting, from] = [{ url: tracesUrl(workspace.endpoint), protocol }, 'the workspace file (x-mcp-loupe.otlp)'];
  if (!exporting && cli?.receive !== true) return undefined;
  return { ...(exporting ? { export: exporting, from } : {}), content, traceparent, ...(warning ? { warning } : {}) };
}

/** An endpoint as it may be said on stderr: no user, password or query (a key may ride in either). */
export function endpointForLog(url: string | undefined): string {
  if (!url) return 'the endpoint of the OTEL_EXPORTER_OTLP_* variables';
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return 'the --otlp endpoint';
  }
}
