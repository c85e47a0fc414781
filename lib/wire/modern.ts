/** UI → proxy messages of 2026-07-28 sessions (issue 12; lib/wire/wire.ts). */
import { z } from 'zod';
import { SubscriptionFilterSchema } from './base.ts';

/** Open the session's `subscriptions/listen` stream (2026-07-28), replacing one already open. */
export const ListenMessageSchema = z.object({ type: z.literal('listen'), session: z.string(), filter: SubscriptionFilterSchema });
/** Close the session's `subscriptions/listen` stream (`notifications/cancelled` is sent). */
export const UnlistenMessageSchema = z.object({ type: z.literal('unlisten'), session: z.string() });
/** The log level put in every request's `_meta` on a 2026-07-28 session; null for none. */
export const SetLogLevelMessageSchema = z.object({ type: z.literal('set-log-level'), session: z.string(), level: z.string().nullable() });
