/**
 * Skip links (issue 26): the first stops of the tab order, shown only while focused, so that the
 * keyboard reaches the tools or the shown server's tabs without crossing the side column's forms.
 * The targets are found in the page as drawn (the visible one: a hidden server keeps its Tools tab
 * mounted), and a link to the tools opens the Tools tab first when another tab is shown.
 */
import type { MouseEvent, ReactNode } from 'react';

/** The first visible element matching `selector`. */
function visible(selector: string): HTMLElement | undefined {
  return [...document.querySelectorAll<HTMLElement>(selector)].find((el) => el.offsetParent !== null || el.getClientRects().length > 0);
}

function focus(el: HTMLElement | undefined): boolean {
  if (!el) return false;
  if (!el.matches('a[href], button, input, select, textarea, [tabindex]')) el.tabIndex = -1;
  el.focus();
  el.scrollIntoView({ block: 'nearest' });
  return document.activeElement === el;
}

/** The selected tool's button, or the first tool of the list shown. */
function toTools(): boolean {
  const list = visible('[data-skip="tools"]');
  if (list) return focus(list.querySelector<HTMLElement>('button[aria-pressed="true"]') ?? list.querySelector<HTMLElement>('button') ?? list);
  // Another tab is shown: open Tools, then try again once it is drawn.
  const tab = [...document.querySelectorAll<HTMLElement>('[role=tablist][aria-label="Main"] [role=tab]')].find((t) => t.offsetParent !== null && /^Tools\b/.test(t.textContent ?? ''));
  if (!tab) return false;
  tab.click();
  requestAnimationFrame(() => {
    const shown = visible('[data-skip="tools"]');
    focus(shown?.querySelector<HTMLElement>('button') ?? shown ?? tab);
  });
  return true;
}

/** The shown server's selected tab (what is beside the side column), else the main element. */
function toMain(): boolean {
  return focus(visible('[role=tablist][aria-label="Main"] [role=tab][aria-selected="true"]') ?? visible('main'));
}

const LINKS: readonly { label: string; href: string; go(): boolean }[] = [
  { label: 'Skip to tools', href: '#tools', go: toTools },
  { label: 'Skip to main content', href: '#main', go: toMain },
];

const linkClass =
  'sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:border focus:border-sky-600 focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-sky-800 focus:shadow focus:outline-none focus:ring-2 focus:ring-sky-500 dark:focus:border-sky-400 dark:focus:bg-zinc-900 dark:focus:text-sky-200';

export function SkipLinks(): ReactNode {
  const follow = (go: () => boolean) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (go()) event.preventDefault();
  };
  return (
    <nav aria-label="Skip links">
      {LINKS.map(({ label, href, go }) => (
        <a key={href} href={href} className={linkClass} onClick={follow(go)}>{label}</a>
      ))}
    </nav>
  );
}
