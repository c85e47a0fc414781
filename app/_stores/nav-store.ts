/** Which main tab the page shows: a store, so that a result's resource link can open the Resources tab. */
/** The tab ids of loupe-app.tsx (others may be added there). */
export type MainTab = 'tools' | 'resources' | 'prompts' | 'history' | 'notifications' | (string & {});

export class NavStore {
  private tab: MainTab = 'tools';
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): MainTab => this.tab;

  show(tab: MainTab): void {
    if (tab === this.tab) return;
    this.tab = tab;
    this.listeners.forEach((listener) => listener());
  }
}
