/**
 * Light/dark theme: follows prefers-color-scheme until the user picks one, which is remembered.
 * The choice is a class on <html> (`dark` or `light`); globals.css falls back to the media query
 * when neither is set, so the first paint is already right without an inline script.
 */
import { ExternalStore } from './external-store.ts';

export type Theme = 'light' | 'dark';

const KEY = 'mcp-loupe.theme';
const QUERY = '(prefers-color-scheme: dark)';

function stored(): Theme | undefined {
  try {
    const value = window.localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : undefined;
  } catch {
    return undefined;
  }
}

function systemTheme(): Theme {
  return window.matchMedia(QUERY).matches ? 'dark' : 'light';
}

export class ThemeStore extends ExternalStore<Theme> {
  constructor() {
    super('light');
  }

  /** Read the saved choice / system preference and apply it (browser only). */
  start(): () => void {
    const media = window.matchMedia(QUERY);
    const onChange = () => {
      if (stored() === undefined) this.apply(systemTheme(), false);
    };
    media.addEventListener('change', onChange);
    const choice = stored();
    this.apply(choice ?? systemTheme(), choice !== undefined);
    return () => media.removeEventListener('change', onChange);
  }

  toggle(): void {
    const next: Theme = this.state === 'dark' ? 'light' : 'dark';
    try {
      window.localStorage.setItem(KEY, next);
    } catch {
      // Storage can be unavailable (private mode); the choice then lasts for this page only.
    }
    this.apply(next, true);
  }

  private apply(theme: Theme, explicit: boolean): void {
    const root = document.documentElement;
    root.classList.toggle('dark', explicit && theme === 'dark');
    root.classList.toggle('light', explicit && theme === 'light');
    this.set(theme);
  }
}
