/**
 * Every text of a span with the secrets masked (the trace's own masking, lib/trace/secret-mask.ts):
 * a server's exported spans may carry what it read from its environment, and an attribute of
 * Loupe's own spans may carry a value the user marked secret. The span itself when nothing changed.
 */
import type { Attributes, SpanData } from './span.ts';

type Scrub = (text: string) => string;

function maskAttributes(attributes: Attributes, scrub: Scrub): Attributes {
  let out: Attributes | undefined;
  for (const [key, value] of Object.entries(attributes)) {
    const masked = typeof value === 'string' ? scrub(value) : Array.isArray(value) ? value.map(scrub) : value;
    const maskedKey = scrub(key);
    if (maskedKey !== key || (Array.isArray(value) ? (masked as string[]).some((v, i) => v !== value[i]) : masked !== value)) {
      out ??= { ...attributes };
      if (maskedKey !== key) delete out[key];
      out[maskedKey] = masked;
    }
  }
  return out ?? attributes;
}

export function maskSpan(span: SpanData, scrub: Scrub): SpanData {
  const masked: SpanData = { ...span, name: scrub(span.name), attributes: maskAttributes(span.attributes, scrub) };
  masked.events = span.events.map((e) => ({ ...e, name: scrub(e.name), ...(e.attributes ? { attributes: maskAttributes(e.attributes, scrub) } : {}) }));
  if (span.status.message !== undefined) masked.status = { ...span.status, message: scrub(span.status.message) };
  if (span.resource) masked.resource = maskAttributes(span.resource, scrub);
  if (span.traceState !== undefined) masked.traceState = scrub(span.traceState);
  return masked;
}
