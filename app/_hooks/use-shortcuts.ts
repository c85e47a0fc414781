'use client';
/**
 * One keydown listener on the document for the page's keyboard shortcuts (issue 26). Which key
 * press is a shortcut is decided by lib/keyboard/shortcuts.ts from the key and what has the focus
 * (a single key never while a text field has it; Ctrl/⌘ chords there only where the table says);
 * `act` does it and says whether it did, and only then is the key kept from the page.
 * A key a component already handled (preventDefault: the palette's arrows, the History table's) is left alone.
 */
import { useEffect, useRef } from 'react';
import { focusKind, isMac, shortcutFor, type ShortcutId } from '../../lib/keyboard/shortcuts.ts';

/** ⌘ or Ctrl, from the browser's platform. */
export function platformIsMac(): boolean {
  if (typeof navigator === 'undefined') return false;
  const data = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData;
  return isMac(data?.platform || navigator.platform);
}

/** A modal dialog is open: the page behind it takes no shortcut. */
function modalOpen(): boolean {
  try {
    return document.querySelector('dialog:modal, [aria-modal="true"]:not(dialog)') !== null;
  } catch {
    return document.querySelector('dialog[open][aria-modal="true"]') !== null;
  }
}

export function useShortcuts(act: (id: ShortcutId) => boolean): void {
  const latest = useRef(act);
  latest.current = act;
  useEffect(() => {
    const mac = platformIsMac();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const id = shortcutFor(event, { focus: focusKind(document.activeElement as HTMLElement | null), modal: modalOpen(), mac });
      if (id !== undefined && latest.current(id)) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
