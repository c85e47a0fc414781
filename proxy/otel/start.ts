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

export async function startTracing(engine: Engine, settings: TracingSettings, where: { origin: string; receiverToken: string }, log: (line: string) => void): Promise<StartedTracing> {
  if (settings.warning) log(settings.warning);
  let sink;
  if (settings.export) {
    const { startExporter } = await import('./exporter.ts');
    let said = false;
    // One line for the first failure, not one per batch: a collector that is down would fill the terminal.
    sink = await startExporter(settings.export, (message) => (said ? undefined : ((said = true), log(`${message} (said once)`))));
    log(`exporting spans to ${endpointForLog(settings.export.url)} (${settings.export.protocol}, from ${settings.from})${settings.content ? ', with arguments and results' : ''}`);
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
