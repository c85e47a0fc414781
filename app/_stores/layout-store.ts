/**
 * The workbench's layout (issue 26): whether the side column is open, and the sizes of resizable
 * panes by name (`tools.list`, `history.detail` …, in pixels). Kept in localStorage, like the theme:
 * a reload finds the room as it was left. Nothing here is about a server.
 */
import { ExternalStore } from './external-store.ts';

const KEY = 'mcp-loupe.layout.v1';

export interface LayoutState {
  sidebar: boolean;
  sizes: Readonly<Record<string, number>>;
}

const DEFAULT: LayoutState = { sidebar: true, sizes: {} };

function read(): LayoutState {
  try {
    const raw = typeof window === 'undefined' ? null : window.localStorage.getItem(KEY);
    if (!raw) return DEFAULT;
    const data = JSON.parse(raw) as Partial<LayoutState>;
    const sizes = Object.fromEntries(Object.entries(data.sizes ?? {}).filter(([, v]) => typeof v === 'number' && Number.isFinite(v) && v > 0));
    return { sidebar: data.sidebar !== false, sizes };
  } catch {
    return DEFAULT;
  }
}

export class LayoutStore extends ExternalStore<LayoutState> {
  constructor() {
    super(DEFAULT);
  }

  /** Reads what was kept (in the browser only; the static export renders the default). */
  start(): void {
    this.set(read());
  }

  toggleSidebar(open = !this.state.sidebar): void {
    this.save({ ...this.state, sidebar: open });
  }

  size(name: string): number | undefined {
    return this.state.sizes[name];
  }

  setSize(name: string, px: number): void {
    if (!Number.isFinite(px) || px <= 0) return;
    this.save({ ...this.state, sizes: { ...this.state.sizes, [name]: Math.round(px) } });
  }

  private save(next: LayoutState): void {
    this.set(next);
    try {
      window.localStorage.setItem(KEY, JSON.stringify(next));
    } catch {
      // Storage full or refused: the layout still changes for this tab.
    }
  }
}
