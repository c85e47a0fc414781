/**
 * The Playground's two parts (issue 27): the chat with a model, and the evals that run cases with
 * models. A tab list (arrow keys move between the two), each part a tab panel named by its tab.
 */
import type { KeyboardEvent, ReactNode } from 'react';

export type PlaygroundView = 'chat' | 'evals';
const VIEWS: { view: PlaygroundView; label: string }[] = [
  { view: 'chat', label: 'Chat' },
  { view: 'evals', label: 'Evals' },
];

export const viewTabId = (view: PlaygroundView) => `playground-view-${view}`;
export const viewPanelId = (view: PlaygroundView) => `playground-panel-${view}`;

export function ViewTabs({ view, onView }: { view: PlaygroundView; onView(view: PlaygroundView): void }): ReactNode {
  const move = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight' && e.key !== 'Home' && e.key !== 'End') return;
    e.preventDefault();
    const next = e.key === 'Home' ? 'chat' : e.key === 'End' ? 'evals' : view === 'chat' ? 'evals' : 'chat';
    onView(next);
    document.getElementById(viewTabId(next))?.focus();
  };
  return (
    <div role="tablist" aria-label="Playground parts" className="flex gap-1 border-b border-zinc-200 dark:border-zinc-700">
      {VIEWS.map((v) => (
        <button
          key={v.view}
          id={viewTabId(v.view)}
          type="button"
          role="tab"
          aria-selected={view === v.view}
          aria-controls={viewPanelId(v.view)}
          tabIndex={view === v.view ? 0 : -1}
          onKeyDown={move}
          onClick={() => onView(v.view)}
          className={`-mb-px border-b-2 px-3 py-1.5 text-sm font-medium ${view === v.view ? 'border-sky-700 text-zinc-900 dark:border-sky-400 dark:text-zinc-100' : 'border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-zinc-100'}`}
        >
          {v.label}
        </button>
      ))}
    </div>
  );
}
