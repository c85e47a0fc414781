/**
 * MCP Apps on the wire (issue 24; lib/wire/wire.ts). A view runs in a sandbox on a second loopback
 * origin, inside the tab that opened it; the host side of its conversation (the ext-apps
 * `AppBridge`) runs in the proxy, so that every message between the view and the host is recorded
 * once, as a frame of the session's trace, and the view's `tools/call` and `resources/read` take
 * the session's normal path (rules, breakpoints, the doctor). The tab is a pipe between the two:
 * what the sandbox posts goes to the proxy as `app-frame`, what the proxy sends the view comes back
 * as `app-frame` and is posted into the sandbox. The view's HTML never crosses the socket: the
 * sandbox server serves it, with the Content-Security-Policy the proxy built from the resource.
 */
import { z } from 'zod';
import { LoupeErrorSchema, RequestIdSchema } from './base.ts';

export const DISPLAY_MODES = ['inline', 'fullscreen', 'pip'] as const;
export const DisplayModeSchema = z.enum(DISPLAY_MODES);
export type DisplayMode = z.infer<typeof DisplayModeSchema>;

/** The host context a user may change beside a view (sent to it as `ui/notifications/host-context-changed`). */
export const HostContextPatchSchema = z.object({
  theme: z.enum(['light', 'dark']).optional(),
  displayMode: DisplayModeSchema.optional(),
  locale: z.string().max(64).optional(),
  timeZone: z.string().max(64).optional(),
  platform: z.enum(['web', 'desktop', 'mobile']).optional(),
  deviceCapabilities: z.object({ touch: z.boolean().optional(), hover: z.boolean().optional() }).optional(),
  containerDimensions: z.record(z.string(), z.number()).optional(),
  safeAreaInsets: z.object({ top: z.number(), right: z.number(), bottom: z.number(), left: z.number() }).optional(),
});
export type HostContextPatch = z.infer<typeof HostContextPatchSchema>;

// ---------------------------------------------------------------------------------------------
// UI → proxy

/**
 * Open the view of a tool call's result. `resultSeq`: the trace frame of the `tools/call` response
 * (the proxy reads the result there; it does not cross the socket again); `result` where the tab
 * has no such frame. `hostOrigin`: the tab's own origin, which the sandbox talks to.
 */
export const AppOpenMessageSchema = z.object({
  type: z.literal('app-open'),
  requestId: z.string(),
  session: z.string(),
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  resultSeq: z.number().optional(),
  result: z.unknown().optional(),
  toolCallId: RequestIdSchema.optional(),
  hostOrigin: z.string(),
  context: HostContextPatchSchema.optional(),
});
export type AppOpenMessage = z.infer<typeof AppOpenMessageSchema>;

/** A message the sandbox posted to the tab, as text (JSON.stringify of what the tab received). */
export const AppFrameInMessageSchema = z.object({ type: z.literal('app-frame'), view: z.string(), text: z.string() });

export const AppContextMessageSchema = z.object({ type: z.literal('app-context'), view: z.string(), context: HostContextPatchSchema });

/** Send `tool-input` and/or `tool-result` to the view again, with these (edited) values. */
export const AppReplayMessageSchema = z.object({
  type: z.literal('app-replay'),
  view: z.string(),
  input: z.record(z.string(), z.unknown()).optional(),
  result: z.unknown().optional(),
});

/** The user's answer to an ask that waits for one (a `ui/message`): approved, the view is told it was sent. */
export const AppAnswerMessageSchema = z.object({ type: z.literal('app-answer'), view: z.string(), ask: z.string(), approve: z.boolean() });

/** Tear the view down (`ui/resource-teardown`, answered or not within a few seconds), then forget it. */
export const AppCloseMessageSchema = z.object({ type: z.literal('app-close'), view: z.string(), reason: z.string().max(500).optional() });

// ---------------------------------------------------------------------------------------------
// proxy → UI

export const ViewStatusSchema = z.enum(['loading', 'sandbox-ready', 'initialized', 'closed', 'failed']);

/** A file a view asked to save (lib/apps/download.ts). */
const DownloadEntrySchema = z.object({ name: z.string(), mimeType: z.string(), uri: z.string(), embedded: z.boolean(), size: z.number().optional() });

/** Something a view asked of the host, in the order asked: what the page lists beside it. */
export const ViewAskSchema = z.object({
  kind: z.enum(['message', 'download', 'open-link', 'model-context', 'log', 'refused', 'csp', 'display-mode', 'teardown']),
  /** One sentence, for the list. */
  text: z.string(),
  /** The frame that carried it (its seq in the session's trace), where there is one. */
  seq: z.number().optional(),
  /** `open-link`: the URL, shown as text and opened only by the user. */
  url: z.string().optional(),
  /** `message`: what the view asked to send, as text (the Playground puts it in the conversation). */
  message: z.string().optional(),
  /** `download` (`ui/download-file`, draft): the files asked for (a link is read from the server only once approved). */
  files: z.array(DownloadEntrySchema).optional(),
  /** An ask the user answers (`message`, `download`): its id for `app-answer`, and how it was answered. */
  id: z.string().optional(),
  answer: z.enum(['waiting', 'approved', 'denied']).optional(),
  /** What went wrong after the answer (an approved download whose link could not be read…). */
  problem: z.string().optional(),
  at: z.number(),
});
export type ViewAsk = z.infer<typeof ViewAskSchema>;

/** What the page shows of one view. Every field is what the proxy knows; the page keeps nothing else. */
export const AppViewStateSchema = z.object({
  view: z.string(),
  session: z.string(),
  tool: z.string(),
  uri: z.string(),
  status: ViewStatusSchema,
  /** The sandbox's URL (its own origin and the view's token) and origin. */
  sandboxUrl: z.string(),
  sandboxOrigin: z.string(),
  /** The iframe `allow` attribute (from `_meta.ui.permissions`). */
  allow: z.string(),
  /** The Content-Security-Policy the view runs under, as sent, and what was declared but dropped. */
  csp: z.string(),
  cspProblems: z.array(z.string()),
  prefersBorder: z.boolean().optional(),
  displayMode: DisplayModeSchema,
  /** The display modes the view declared in `ui/initialize` (all three until it has). */
  viewDisplayModes: z.array(DisplayModeSchema),
  hostContext: z.record(z.string(), z.unknown()),
  size: z.object({ width: z.number().optional(), height: z.number().optional() }).optional(),
  /** The last `ui/update-model-context` (each overwrites the previous). */
  modelContext: z.unknown().optional(),
  asks: z.array(ViewAskSchema),
  error: z.string().optional(),
});
export type AppViewState = z.infer<typeof AppViewStateSchema>;

export const AppOpenedMessageSchema = z.object({
  type: z.literal('app-opened'),
  requestId: z.string(),
  state: AppViewStateSchema.optional(),
  error: LoupeErrorSchema.optional(),
});

/** A message for the view (or its sandbox), to post into the sandbox frame as it is. */
export const AppFrameOutMessageSchema = z.object({ type: z.literal('app-frame'), view: z.string(), text: z.string() });

export const AppStateMessageSchema = z.object({ type: z.literal('app-state'), state: AppViewStateSchema });

/** An approved `download` ask's files, read (a link from the server), for the page to save: held in memory there, never stored. */
export const AppDownloadMessageSchema = z.object({
  type: z.literal('app-download'),
  view: z.string(),
  ask: z.string(),
  files: z.array(z.object({ name: z.string(), mimeType: z.string(), text: z.string().optional(), base64: z.string().optional() })),
});

/** The proxy refused what the page asked of this view (a replay before it initialized, a view no longer open). */
export const AppProblemMessageSchema = z.object({ type: z.literal('app-problem'), view: z.string(), message: z.string() });

/** The Apps' messages each way, for the unions of lib/wire/wire.ts. */
export const APPS_CLIENT_MESSAGES = [AppOpenMessageSchema, AppFrameInMessageSchema, AppContextMessageSchema, AppReplayMessageSchema, AppAnswerMessageSchema, AppCloseMessageSchema] as const;
export const APPS_SERVER_MESSAGES = [AppOpenedMessageSchema, AppFrameOutMessageSchema, AppStateMessageSchema, AppDownloadMessageSchema, AppProblemMessageSchema] as const;
