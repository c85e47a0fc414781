/**
 * The OAuth messages of the wire protocol (issue 11, lib/wire/oauth.ts): `oauth-settings` and
 * `oauth-forget` go to the session's sign-in; `oauth-guided` starts, continues or stops the
 * session's guided flow (oauth-guided.ts), whose every change goes to every tab as
 * `oauth-guided-state`. The flow's code (and the SDK's client auth it uses) is imported with the
 * first guided start, not with the hub: most sessions never need it.
 */
import type { WebSocket } from 'ws';
import type { ClientMessage } from '../../../lib/wire/wire.ts';
import type { GuidedFlow } from '../../../lib/wire/oauth.ts';
import type { HubContext } from './context.ts';
import type { CallbackResult, GuidedContext, GuidedOAuth } from '../../oauth/guided/guided.ts';
import type { Session } from '../../session/session.ts';

const OAUTH_TYPES = new Set(['oauth-settings', 'oauth-forget', 'oauth-guided'] as const);
type OAuthType = typeof OAUTH_TYPES extends Set<infer T> ? T : never;
export type OAuthMessage = Extract<ClientMessage, { type: OAuthType }>;

export function isOAuthMessage(message: ClientMessage): message is OAuthMessage {
  return OAUTH_TYPES.has(message.type as OAuthType);
}

/** The guided flows of each hub, one per session at most. */
const flowsByHub = new WeakMap<HubContext, Map<string, GuidedOAuth>>();

function flowsOf(hub: HubContext): Map<string, GuidedOAuth> {
  let flows = flowsByHub.get(hub);
  if (!flows) {
    const created = new Map<string, GuidedOAuth>();
    hub.engine.on((event) => {
      if (event.type !== 'session-removed') return;
      created.get(event.id)?.stop('The server was removed.');
      created.delete(event.id);
    });
    flowsByHub.set(hub, (flows = created));
  }
  return flows;
}

/** The current flows, for a tab that attaches (sent after its snapshot). */
export function guidedFlows(hub: HubContext): GuidedFlow[] {
  return [...(flowsByHub.get(hub)?.values() ?? [])].map((flow) => flow.flow);
}

export async function dispatchOAuth(hub: HubContext, ws: WebSocket, message: OAuthMessage): Promise<void> {
  switch (message.type) {
    case 'oauth-settings':
      return hub.withSession(ws, message.session, (session) => session.setOAuthSettings(message.settings));
    case 'oauth-forget':
      return hub.withSession(ws, message.session, async (session) => {
        // The guided flow holds credentials of its own: they go too.
        flowsOf(hub).get(session.id)?.stop('Credentials forgotten.');
        await session.forgetOAuth();
      });
    case 'oauth-guided':
      return hub.withSession(ws, message.session, (session) => guided(hub, ws, session, message.action));
  }
}

async function guided(hub: HubContext, ws: WebSocket, session: Session, action: 'start' | 'continue' | 'stop'): Promise<void> {
  const flows = flowsOf(hub);
  const current = flows.get(session.id);
  if (action === 'stop') return current?.stop('Stopped before it finished.');
  if (action === 'continue') {
    if (!current) return hub.sendError(ws, { code: 'BAD_MESSAGE', message: 'No guided sign-in runs for this server: press Start guided flow first.' });
    const result = await current.continue();
    if (!result.ok) hub.sendError(ws, { code: 'BAD_MESSAGE', message: result.reason });
    return;
  }
  const config = session.config;
  if (config.kind !== 'http') return hub.sendError(ws, { code: 'BAD_MESSAGE', message: 'The guided OAuth flow is for remote servers (a URL); this server runs over stdio.' });
  current?.stop('A new guided sign-in replaced this one.');
  const { GuidedOAuth } = await import('../../oauth/guided/guided.ts');
  const flow = new GuidedOAuth(session.id, guidedContext(hub, session, config.url, config.headers), (changed) => {
    // A replaced flow's late news must not overwrite the new one's cards.
    if (flows.get(session.id) === flow) hub.broadcastNow({ type: 'oauth-guided-state', flow: changed });
  });
  flows.set(session.id, flow);
  hub.broadcastNow({ type: 'oauth-guided-state', flow: flow.flow });
  // The first step is a request without credentials: safe to run at once, and the flow starts visibly.
  await flow.continue();
}

function guidedContext(hub: HubContext, session: Session, serverUrl: string, headers: Record<string, string>): GuidedContext {
  return {
    serverUrl,
    headers,
    secretHeaders: session.snapshot().secretHeaders,
    settings: session.oauthSettings(),
    redirectUrl: hub.engine.redirectUrl,
    awaitCallback: async (state, where) => callbackResult(await hub.engine.callbacks.expect(state, where)),
    cancelCallback: (state, why) => hub.engine.callbacks.cancel(state, why),
    record: (event) => void session.trace.record({ kind: 'auth', ...event }),
  };
}

/**
 * The callback route reports an authorization server's refusal as a sentence
 * (oauth-callback.ts: "The authorization server answered CODE: DESCRIPTION."); the flow names the
 * failure by its OAuth error code, read back from it.
 */
export function callbackResult(outcome: { ok: true; code: string } | { ok: false; error: string }): CallbackResult {
  if (outcome.ok) return outcome;
  const match = /answered ([a-z_]+)(?:: (.*?))?\.?$/.exec(outcome.error);
  return { ok: false, error: outcome.error, oauthError: match?.[1], description: match?.[2] };
}
