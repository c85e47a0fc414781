/**
 * The OTLP exporter (issue 28): Loupe's spans (lib/otel/span-builder.ts) handed to the
 * OpenTelemetry JS SDK's batch processor and OTLP/HTTP exporter (JSON or protobuf), which send them
 * to the team's collector. The SDK is imported here, and this module only when tracing is on
 * (tracing.ts imports it dynamically): a launch without `--otlp` loads none of it.
 *
 * Spans are not made with a Tracer: their ids must be the ones Loupe already put in the frames'
 * `traceparent` (so that a server's own spans join them), and their times the frames' recorded
 * times, so they are given to the processor as `ReadableSpan`s, which is what it exports.
 */
import type { HrTime } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Resource } from '@opentelemetry/resources';
import type { SpanData, SpanKind } from '../../lib/otel/span.ts';
import { VERSION } from '../version.ts';

export type OtlpProtocol = 'http/json' | 'http/protobuf';

export interface ExportSettings {
  /** The traces endpoint (`…/v1/traces`); undefined: the SDK reads OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / OTEL_EXPORTER_OTLP_ENDPOINT. */
  url?: string;
  protocol: OtlpProtocol;
}

export interface SpanSink {
  export(span: SpanData): void;
  /** Sends what is queued and stops. */
  shutdown(): Promise<void>;
}

const KIND: Record<SpanKind, number> = { internal: 0, server: 1, client: 2, producer: 3, consumer: 4 };
const STATUS = { unset: 0, ok: 1, error: 2 } as const;

function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

/** The exporter for this protocol, from its package (the two differ only in their serializer). */
async function newExporter(settings: ExportSettings) {
  const config = { ...(settings.url ? { url: settings.url } : {}), timeoutMillis: 10_000 };
  if (settings.protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter(config);
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter(config);
}

/** Loads the SDK and starts the exporter. `onError`: told once per failed batch, in words without headers. */
export async function startExporter(settings: ExportSettings, onError: (message: string) => void): Promise<SpanSink> {
  const [{ BatchSpanProcessor }, { resourceFromAttributes }, { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION }] = await Promise.all([import('@opentelemetry/sdk-trace-base'), import('@opentelemetry/resources'), import('@opentelemetry/semantic-conventions')]);
  const exporter = await newExporter(settings);
  const failing = { export: exporter.export.bind(exporter) };
  exporter.export = (spans, done) =>
    failing.export(spans, (result) => {
      if (result.code !== 0) onError(`could not send ${spans.length} span(s) to the OTLP endpoint: ${result.error?.message ?? 'failed'}`);
      done(result);
    });
  // A notification flood must not grow the queue without end: beyond it, spans are dropped (and the SDK counts them).
  const processor: SpanProcessor = new BatchSpanProcessor(exporter, { maxQueueSize: 8192, maxExportBatchSize: 512, scheduledDelayMillis: 500 });
  const resources = new Map<string, Resource>();
  const resourceOf = (span: SpanData): Resource => {
    const key = JSON.stringify(span.resource ?? {});
    let resource = resources.get(key);
    if (!resource) {
      resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'mcp-loupe', [ATTR_SERVICE_VERSION]: VERSION, ...span.resource });
      if (resources.size < 1024) resources.set(key, resource);
    }
    return resource;
  };
  return {
    export: (span) => processor.onEnd(readable(span, resourceOf(span))),
    shutdown: () => processor.shutdown(),
  };
}

export function readable(span: SpanData, resource: Resource): ReadableSpan {
  const context = { traceId: span.traceId, spanId: span.spanId, traceFlags: 1 };
  return {
    name: span.name,
    kind: KIND[span.kind],
    spanContext: () => context,
    parentSpanContext: span.parentSpanId ? { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: 1, isRemote: true } : undefined,
    startTime: hrTime(span.startMs),
    endTime: hrTime(span.endMs),
    duration: hrTime(span.endMs - span.startMs),
    status: span.status.message ? { code: STATUS[span.status.code], message: span.status.message } : { code: STATUS[span.status.code] },
    attributes: span.attributes,
    links: [],
    events: span.events.map((e) => ({ name: e.name, time: hrTime(e.timeMs), attributes: e.attributes })),
    ended: true,
    resource,
    instrumentationScope: { name: span.scope ?? 'mcp-loupe', version: VERSION },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
