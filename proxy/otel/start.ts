/**
 * Turning tracing on for a launch (issue 28): the exporter (the SDK loaded here, only now), the
 * engine consumer (tracing.ts), and the environment the stdio servers Loupe starts get, so that an
 * instrumented server exports its spans to Loupe's receiver — with the receiver's own token, never
 * the launch token, and only where the server's config sets no endpoint of its own.
 */
import type { Engine } from '../engine/engine.ts';
import { setChildEnv } from '../upstream/stdio/child-env.ts';
import { endpointForLog, type TracingSettings } from './settings.ts';
import { Tracing } from './tracing.ts';
import type { SpanSink } from './exporter.ts';
import type { SpanData } from '../../lib/otel/span.ts';
import { RECEIVER_PATH } from './receiver.ts';

const OWN_ENDPOINT = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'];

/** What a stdio server's environment gets: Loupe's receiver, unless its config names an endpoint. */
export function receiverEnv(origin: string, receiverToken: string, configured: Readonly<Record<string, string>> | undefined): Record<string, string> {
  if (configured && OWN_ENDPOINT.some((name) => configured[name] !== undefined)) return {};
  const env: Record<string, string> = {
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${origin}${RECEIVER_PATH}`,
    // The W3C baggage format of the variable: the space percent-encoded.
    OTEL_EXPORTER_OTLP_TRACES_HEADERS: `Authorization=Bearer%20${receiverToken}`,
  };
  if (configured?.OTEL_EXPORTER_OTLP_PROTOCOL === undefined && configured?.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL === undefined) env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL = 'http/protobuf';
  return env;
}

export interface StartedTracing {
  tracing: Tracing;
  close(): Promise<void>;
}

/**
 * A sink that keeps spans until the exporter has loaded (the SDK takes a moment): sessions start at
 * once, stamped and with the receiver in their environment, rather than waiting for it.
 */
function pendingSink(loading: Promise<SpanSink | undefined>): SpanSink {
  let ready: SpanSink | undefined;
  let waiting: SpanData[] | undefined = [];
  void loading.then((sink) => {
    ready = sink;
    for (const span of waiting ?? []) sink?.export(span);
    waiting = undefined;
  });
  return {
    export: (span) => (ready ? ready.export(span) : waiting && waiting.length < 8192 ? void waiting.push(span) : undefined),
    shutdown: async () => (await loading)?.shutdown(),
  };
}

export function startTracing(engine: Engine, settings: TracingSettings, where: { origin: string; receiverToken: string }, log: (line: string) => void): StartedTracing {
  if (settings.warning) log(settings.warning);
  let sink: SpanSink | undefined;
  const exporting = settings.export;
  if (exporting) {
    let said = false;
    // One line for the first failure, not one per batch: a collector that is down would fill the terminal.
    const onError = (message: string) => (said ? undefined : ((said = true), log(`${message} (said once)`)));
    const loading = import('./exporter.ts').then(
      ({ startExporter }) => startExporter(exporting, onError),
      (error: unknown) => (log(`could not load the OpenTelemetry exporter: ${error instanceof Error ? error.message : String(error)}`), undefined),
    );
    sink = pendingSink(loading);
    log(`exporting spans to ${endpointForLog(exporting.url)} (${exporting.protocol}, from ${settings.from})${settings.content ? ', with arguments and results' : ''}`);
  }
  const tracing = new Tracing(engine, { sink, content: settings.content, traceparent: settings.traceparent });
  const previous = setChildEnv((configured) => receiverEnv(where.origin, where.receiverToken, configured));
  return {
    tracing,
    close: async () => {
      setChildEnv(previous);
      await tracing.close();
    },
  };
}
