/**
 * The server doctor on the wire (issue 14; lib/wire/wire.ts): the page asks the proxy to examine a
 * session's server (the proxy fetches every list afresh and runs the rules of lib/doctor/doctor.ts, the
 * same as `mcp-loupe --doctor`) and gets the report back. The report is the proxy's own output,
 * so it is typed, not re-validated field by field.
 */
import { z } from 'zod';
import type { DoctorReport } from '../model/doctor.ts';
import { LoupeErrorSchema } from './base.ts';

export const RunDoctorMessageSchema = z.object({ type: z.literal('run-doctor'), session: z.string(), requestId: z.string() });
export type RunDoctorMessage = z.infer<typeof RunDoctorMessageSchema>;

export const DoctorReportMessageSchema = z.object({
  type: z.literal('doctor-report'),
  requestId: z.string(),
  session: z.string(),
  report: z.custom<DoctorReport>((value) => value !== null && typeof value === 'object').optional(),
  error: LoupeErrorSchema.optional(),
});
export type DoctorReportMessage = z.infer<typeof DoctorReportMessageSchema>;
