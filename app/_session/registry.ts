/**
 * The session models of one tab, keyed by session id (issue 9). A model is made when a view
 * first asks for its session (lazily: ten idle servers cost ten SessionInfos, not ten sets of
 * stores) and disposed when the proxy removes the session. The registry also tells the proxy
 * which sessions the tab shows, so that it sends full events for those only (`subscribe`).
 */
import type { LoupeStore } from './loupe-store.ts';
import { createSessionModel, type SessionModel } from './model.ts';

export class SessionRegistry {
  private readonly models = new Map<string, SessionModel>();
  private readonly off: Array<() => void>;

  constructor(private readonly app: LoupeStore) {
    this.off = [
      app.onMessage((message) => {
        if (message.type === 'session-removed') this.drop(message.session);
      }),
      // A session gone while the socket was down is missing from the next snapshot.
      app.subscribe(() => this.reconcile()),
    ];
  }

  /** The model of a session, made on first use. */
  get(id: string): SessionModel {
    let model = this.models.get(id);
    if (!model) {
      model = createSessionModel(this.app.port(id));
      this.models.set(id, model);
    }
    return model;
  }

  /** The model if one was made (views that only summarise a session do not make one). */
  peek(id: string): SessionModel | undefined {
    return this.models.get(id);
  }

  /** Ask for full events of these sessions (`all`: every session, for the merged views). */
  show(sessions: readonly string[] | 'all'): void {
    this.app.show(sessions === 'all' ? ['*'] : sessions);
  }

  dispose(): void {
    this.off.forEach((off) => off());
    for (const id of [...this.models.keys()]) this.drop(id);
  }

  private drop(id: string): void {
    this.models.get(id)?.dispose();
    this.models.delete(id);
  }

  private reconcile(): void {
    const state = this.app.getSnapshot();
    if (!state.synced) return;
    for (const id of [...this.models.keys()]) if (!state.sessions[id]) this.drop(id);
  }
}
