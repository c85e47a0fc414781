/**
 * The guided OAuth flows of every session, as the proxy last sent them (`oauth-guided-state`,
 * issue 11), and the OAuth messages this tab sends: settings, forget, start / continue / stop.
 * The flows live in the proxy (a reload or a second tab sees the same cards); this store only
 * keeps the latest picture of each, for every session, so that a flow started while the OAuth tab
 * was closed is there when it opens.
 */
import type { ClientMessage, ServerMessage } from '../../lib/wire/wire.ts';
import type { GuidedFlow, OAuthSettings } from '../../lib/wire/oauth.ts';
import type { MessageHost } from '../_wire/message-host.ts';
import { HostStore } from './host-store.ts';

export interface OAuthViewState {
  /** By session id. */
  flows: Readonly<Record<string, GuidedFlow>>;
  /** By session id: why the last message could not be sent (the socket was down). */
  notSent: Readonly<Record<string, string>>;
}

/** What the store needs of the tab store (loupe-store.ts). */
export type OAuthHost = MessageHost;

const NOT_SENT = 'Not connected to Loupe: nothing was sent. Try again once the page reconnects.';

export class OAuthStore extends HostStore<OAuthViewState> {
  constructor(private readonly host: OAuthHost) {
    super(host, { flows: {}, notSent: {} });
  }

  start(session: string): boolean {
    return this.sendFor(session, { type: 'oauth-guided', session, action: 'start' });
  }

  continueFlow(session: string): boolean {
    return this.sendFor(session, { type: 'oauth-guided', session, action: 'continue' });
  }

  stop(session: string): boolean {
    return this.sendFor(session, { type: 'oauth-guided', session, action: 'stop' });
  }

  saveSettings(session: string, settings: OAuthSettings): boolean {
    return this.sendFor(session, { type: 'oauth-settings', session, settings });
  }

  forget(session: string): boolean {
    return this.sendFor(session, { type: 'oauth-forget', session });
  }

  private sendFor(session: string, message: ClientMessage): boolean {
    const sent = this.host.send(message);
    const was = this.state.notSent[session];
    if (sent && was !== undefined) {
      const { [session]: _old, ...rest } = this.state.notSent;
      this.set({ ...this.state, notSent: rest });
    } else if (!sent && was === undefined) this.set({ ...this.state, notSent: { ...this.state.notSent, [session]: NOT_SENT } });
    return sent;
  }

  protected receive(message: ServerMessage): void {
    switch (message.type) {
      case 'oauth-guided-state':
        return this.set({ ...this.state, flows: { ...this.state.flows, [message.flow.session]: message.flow } });
      case 'snapshot':
        // A new socket: the proxy sends the flows it holds after its snapshot.
        if (Object.keys(this.state.flows).length > 0) this.set({ ...this.state, flows: {} });
        return;
      case 'session-removed': {
        if (!(message.session in this.state.flows)) return;
        const { [message.session]: _gone, ...flows } = this.state.flows;
        return this.set({ ...this.state, flows });
      }
      default:
        return;
    }
  }

  /** Only a change of the flows or of the notes makes a new snapshot. */
  protected override set(next: OAuthViewState): void {
    if (next.flows === this.state.flows && next.notSent === this.state.notSent) return;
    super.set(next);
  }
}
