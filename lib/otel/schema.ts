/** The zod shape of a span on the wire and in recordings (lib/wire/events.ts `spans` events): what a server sent is checked before the page has it. */
import { z } from 'zod';

const Value = z.union([z.string().max(65_536), z.number(), z.boolean(), z.array(z.string().max(65_536)).max(1024)]);
const AttributesSchema = z.record(z.string().max(512), Value);

export const SpanDataSchema = z.object({
  traceId: z.string().regex(/^[0-9a-f]{32}$/),
  spanId: z.string().regex(/^[0-9a-f]{16}$/),
  parentSpanId: z.string().regex(/^[0-9a-f]{16}$/).optional(),
  traceState: z.string().max(512).optional(),
  name: z.string().max(4096),
  kind: z.enum(['internal', 'server', 'client', 'producer', 'consumer']),
  startMs: z.number(),
  endMs: z.number(),
  attributes: AttributesSchema,
  events: z.array(z.object({ name: z.string().max(4096), timeMs: z.number(), attributes: AttributesSchema.optional() })).max(1024),
  status: z.object({ code: z.enum(['unset', 'ok', 'error']), message: z.string().max(65_536).optional() }),
  resource: AttributesSchema.optional(),
  scope: z.string().max(512).optional(),
});
