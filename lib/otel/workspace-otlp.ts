/**
 * The workspace file's tracing setting (issue 28), `x-mcp-loupe.otlp`: where to export (an
 * OTLP/HTTP endpoint), the encoding, and the two switches. Never headers: a file is shared and
 * committed, and a collector's key belongs in OTEL_EXPORTER_OTLP_HEADERS. A bad block is a note,
 * and tracing stays as the command line and the environment say.
 */
import { z } from 'zod';

export const WorkspaceOtlpSchema = z.strictObject({
  endpoint: z.url({ protocol: /^https?$/ }).optional(),
  protocol: z.enum(['http/protobuf', 'http/json']).optional(),
  content: z.boolean().optional(),
  traceparent: z.boolean().optional(),
});
export type WorkspaceOtlp = z.infer<typeof WorkspaceOtlpSchema>;

/** `x-mcp-loupe.otlp` of a file's Loupe block, or undefined (none, or a note said why not). */
export function readWorkspaceOtlp(extras: unknown, key: string, notes: string[]): WorkspaceOtlp | undefined {
  if (extras === null || typeof extras !== 'object' || !('otlp' in extras)) return undefined;
  const read = WorkspaceOtlpSchema.safeParse((extras as { otlp: unknown }).otlp);
  if (read.success) return read.data;
  const issue = read.error.issues[0];
  notes.push(`"${key}.otlp" is not a tracing setting Loupe reads (${issue ? `${issue.path.join('.') || 'it'}: ${issue.message}` : 'unknown'}; it takes endpoint, protocol, content and traceparent, never headers); tracing follows the command line and the environment.`);
  return undefined;
}
