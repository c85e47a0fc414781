/**
 * The keyboard shortcuts of the page (issue 26), one table that the key listener, the palette (the
 * keys beside each action) and the `Keyboard shortcuts` panel all read, and the guard that decides
 * whether a key press is a shortcut given what has the focus.
 *
 * The rule that no shortcut steals a key from a text field: a single key (`/`, `?`, `j` …) is taken
 * only when the focus is not in an input, textarea, select or contenteditable element; a chord with
 * Ctrl (⌘ on a Mac) is taken there too only where the table says so (`inText`): the palette (no field
 * types with Ctrl+K) and running a tool, or its last call again, from inside its form (Ctrl+Enter and
 * Ctrl+Shift+Enter type nothing; both act in the Tools tab only, where no field has a Ctrl+Enter of its own).
 * While a modal dialog is open, only the palette's chord is taken (it does nothing more there).
 */

export type ShortcutId = 'palette' | 'help' | 'run' | 'rerun' | 'next-frame' | 'previous-frame' | 'focus-filter' | 'next-server' | 'previous-server' | 'toggle-sidebar';

export interface Shortcut {
  id: ShortcutId;
  /** `event.key` as a browser reports it (a letter in lower case). */
  key: string;
  /** Ctrl on Windows and Linux, ⌘ on a Mac. */
  mod?: boolean;
  shift?: boolean;
  /** Taken while a text field has the focus (chords only). */
  inText?: boolean;
  /** What it does, as the palette and the panel say it. */
  label: string;
  /** Where it acts, when not everywhere. */
  where?: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'palette', key: 'k', mod: true, inText: true, label: 'Open the command palette' },
  { id: 'help', key: '?', label: 'Show keyboard shortcuts' },
  { id: 'run', key: 'Enter', mod: true, inText: true, label: 'Run tool', where: 'Tools tab' },
  { id: 'rerun', key: 'Enter', mod: true, shift: true, inText: true, label: 'Re-run last call', where: 'Tools tab' },
  { id: 'next-frame', key: 'j', label: 'Next frame', where: 'History tab' },
  { id: 'previous-frame', key: 'k', label: 'Previous frame', where: 'History tab' },
  { id: 'focus-filter', key: '/', label: 'Focus History filter' },
  { id: 'next-server', key: ']', label: 'Next server' },
  { id: 'previous-server', key: '[', label: 'Previous server' },
  { id: 'toggle-sidebar', key: '\\', label: 'Toggle side column' },
];

export function shortcut(id: ShortcutId): Shortcut {
  const found = SHORTCUTS.find((s) => s.id === id);
  if (!found) throw new Error(`no shortcut ${id}`);
  return found;
}

/** What the guard needs of a key event. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  /** An input method is composing: never a shortcut. */
  isComposing?: boolean;
}

/** What has the focus: a field that takes typing, or anything else. */
export type FocusKind = 'text' | 'other';

/** What the guard needs of the focused element. */
export interface FocusedElement {
  tagName: string;
  type?: string;
  isContentEditable?: boolean;
}

/** Inputs whose keys are not typing. */
const NOT_TYPED = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file', 'image', 'hidden']);

export function focusKind(el: FocusedElement | null | undefined): FocusKind {
  if (!el) return 'other';
  if (el.isContentEditable) return 'text';
  const tag = el.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return 'text';
  if (tag === 'INPUT') return NOT_TYPED.has((el.type ?? 'text').toLowerCase()) ? 'other' : 'text';
  return 'other';
}

export interface KeyContext {
  focus: FocusKind;
  /** A modal dialog (the palette, the shortcuts panel, …) is open. */
  modal: boolean;
  /** ⌘ is the modifier, not Ctrl. */
  mac: boolean;
}

function matches(s: Shortcut, press: KeyPress, mac: boolean): boolean {
  const mod = mac ? press.metaKey : press.ctrlKey;
  const other = mac ? press.ctrlKey : press.metaKey;
  if (press.altKey || other || mod !== (s.mod === true)) return false;
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  if (key !== s.key) return false;
  // A printed character carries its own Shift (`?` is Shift+/): Shift is told apart for chords and named keys only.
  if (s.mod || press.key.length > 1) return press.shiftKey === (s.shift === true);
  return press.key.length === 1 && (press.key === s.key || !/[a-z]/.test(s.key));
}

/** The shortcut this key press is, or undefined when the page must leave the key alone. */
export function shortcutFor(press: KeyPress, context: KeyContext): ShortcutId | undefined {
  if (press.isComposing || press.key === 'Process' || press.key === 'Dead') return undefined;
  const found = SHORTCUTS.find((s) => matches(s, press, context.mac));
  if (!found) return undefined;
  if (context.modal) return found.id === 'palette' ? found.id : undefined;
  if (context.focus === 'text' && !found.inText) return undefined;
  return found.id;
}

/** The keys of a shortcut as the page shows them, one string a key: `['Ctrl', 'Shift', 'Enter']`, `['⌘', 'K']`. */
export function keysOf(s: Shortcut, mac: boolean): string[] {
  const name = s.key.length === 1 ? s.key.toUpperCase() : s.key;
  return [...(s.mod ? [mac ? '⌘' : 'Ctrl'] : []), ...(s.shift ? ['Shift'] : []), s.mod || s.key.length > 1 ? name : s.key];
}

/** Whether the platform's modifier is ⌘ (from `navigator.platform` or `userAgentData.platform`). */
export function isMac(platform: string | undefined): boolean {
  return /mac|iphone|ipad|ipod/i.test(platform ?? '');
}
