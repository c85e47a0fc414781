/**
 * The command line of OpenTelemetry (issue 28, docs/contract.md): `--otlp URL`,
 * `--otlp-protocol http/json|http/protobuf`, `--otlp-content`, `--no-otlp-traceparent` and
 * `--otlp-receive`. Specs in the shape of relay.ts's, which the parser in options.ts merges; what
 * they mean together with the OTEL_* environment and the workspace is proxy/otel/settings.ts.
 */
import type { OtelCliOptions } from '../otel/settings.ts';

type HasOtel = { otel?: OtelCliOptions };
export interface OtelSpec {
  takesValue: boolean;
  apply: (options: HasOtel, value: string, flag: string) => string | undefined;
}

const otel = (o: HasOtel): OtelCliOptions => (o.otel ??= { content: false, traceparent: true, receive: false });
const flag = (set: (o: OtelCliOptions) => void): OtelSpec => ({ takesValue: false, apply: (o) => void set(otel(o)) });

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
  ['--otlp-content', flag((o) => (o.content = true))],
  ['--no-otlp-traceparent', flag((o) => (o.traceparent = false))],
  ['--otlp-receive', flag((o) => (o.receive = true))],
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
