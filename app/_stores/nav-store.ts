/** Which main tab the page shows: a store, so that a result's resource link can open the Resources tab. */
import { ExternalStore } from './external-store.ts';

/** The tab ids of loupe-app.tsx (others may be added there). */
export type MainTab = 'tools' | 'resources' | 'prompts' | 'history' | 'notifications' | (string & {});

export class NavStore extends ExternalStore<MainTab> {
  constructor() {
    super('tools');
  }

  show(tab: MainTab): void {
    if (tab === this.state) return;
    this.set(tab);
  }
}
