/** The header: product name, the link to Loupe's own proxy (socket health) and the theme toggle. */
import type { ReactNode } from 'react';
import { buttonClass } from '../ui/ui.tsx';

export interface TopBarProps {
  dark: boolean;
  onToggleTheme(): void;
}

export function TopBar({ dark, onToggleTheme }: TopBarProps): ReactNode {
  return (
    <header className="flex items-center justify-between border-b border-zinc-200 bg-white px-4 py-2 dark:border-zinc-800 dark:bg-zinc-900">
      <h1 className="flex items-center gap-2 text-base font-semibold">
        <span aria-hidden="true" className="inline-block size-4 rounded-full border-2 border-sky-600 dark:border-sky-400" />
        MCP Loupe
      </h1>
      {/* The button names what it does: in the dark theme it offers the light one, and back. */}
      <button type="button" className={buttonClass} onClick={onToggleTheme}>
        <span aria-hidden="true">{dark ? '☀' : '☾'}</span> {dark ? 'Light theme' : 'Dark theme'}
      </button>
    </header>
  );
}
