import { describe, expect, it } from 'vitest';
import { focusKind, isMac, keysOf, shortcut, shortcutFor, SHORTCUTS, type KeyContext, type KeyPress } from './shortcuts.ts';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });
const outside: KeyContext = { focus: 'other', modal: false, mac: false };
const typing: KeyContext = { focus: 'text', modal: false, mac: false };

describe('shortcutFor: which key presses are taken', () => {
  it('takes each shortcut of the table outside a text field', () => {
    expect(shortcutFor(press('k', { ctrlKey: true }), outside)).toBe('palette');
    expect(shortcutFor(press('?', { shiftKey: true }), outside)).toBe('help');
    expect(shortcutFor(press('Enter', { ctrlKey: true }), outside)).toBe('run');
    expect(shortcutFor(press('Enter', { ctrlKey: true, shiftKey: true }), outside)).toBe('rerun');
    expect(shortcutFor(press('j'), outside)).toBe('next-frame');
    expect(shortcutFor(press('k'), outside)).toBe('previous-frame');
    expect(shortcutFor(press('/'), outside)).toBe('focus-filter');
    expect(shortcutFor(press(']'), outside)).toBe('next-server');
    expect(shortcutFor(press('['), outside)).toBe('previous-server');
    expect(shortcutFor(press('\\'), outside)).toBe('toggle-sidebar');
  });

  it('never takes a single key from a text field; takes only the chords meant for one', () => {
    for (const key of ['/', '?', 'j', 'k', '[', ']', '\\']) expect(shortcutFor(press(key, { shiftKey: key === '?' }), typing), key).toBeUndefined();
    expect(shortcutFor(press('k', { ctrlKey: true }), typing)).toBe('palette');
    expect(shortcutFor(press('K', { ctrlKey: true }), typing)).toBe('palette');
    expect(shortcutFor(press('Enter', { ctrlKey: true }), typing)).toBe('run');
    expect(shortcutFor(press('Enter', { ctrlKey: true, shiftKey: true }), typing)).toBe('rerun');
    expect(shortcutFor(press('Enter'), typing)).toBeUndefined();
  });

  it('leaves other modifiers, Shift on letters, and composition alone', () => {
    expect(shortcutFor(press('J', { shiftKey: true }), outside)).toBeUndefined();
    expect(shortcutFor(press('j', { altKey: true }), outside)).toBeUndefined();
    expect(shortcutFor(press('j', { ctrlKey: true }), outside)).toBeUndefined();
    expect(shortcutFor(press('k', { ctrlKey: true, shiftKey: true }), outside)).toBeUndefined();
    expect(shortcutFor(press('k', { ctrlKey: true, altKey: true }), outside)).toBeUndefined();
    expect(shortcutFor(press('/', { isComposing: true }), outside)).toBeUndefined();
    expect(shortcutFor(press('Process'), outside)).toBeUndefined();
    expect(shortcutFor(press('x'), outside)).toBeUndefined();
  });

  it('uses ⌘ on a Mac, where Ctrl+K stays the text field\'s', () => {
    const mac: KeyContext = { ...typing, mac: true };
    expect(shortcutFor(press('k', { metaKey: true }), mac)).toBe('palette');
    expect(shortcutFor(press('k', { ctrlKey: true }), mac)).toBeUndefined();
    expect(shortcutFor(press('k', { metaKey: true }), typing)).toBeUndefined();
  });

  it('takes nothing but the palette chord while a modal dialog is open', () => {
    const modal: KeyContext = { ...outside, modal: true };
    expect(shortcutFor(press('k', { ctrlKey: true }), modal)).toBe('palette');
    for (const key of ['/', '?', 'j', '\\']) expect(shortcutFor(press(key), modal)).toBeUndefined();
    expect(shortcutFor(press('Enter', { ctrlKey: true }), modal)).toBeUndefined();
  });
});

describe('focusKind', () => {
  it('calls typing fields text, buttons and the rest other', () => {
    expect(focusKind({ tagName: 'INPUT' })).toBe('text');
    expect(focusKind({ tagName: 'input', type: 'search' })).toBe('text');
    expect(focusKind({ tagName: 'INPUT', type: 'number' })).toBe('text');
    expect(focusKind({ tagName: 'TEXTAREA' })).toBe('text');
    expect(focusKind({ tagName: 'SELECT' })).toBe('text');
    expect(focusKind({ tagName: 'DIV', isContentEditable: true })).toBe('text');
    expect(focusKind({ tagName: 'INPUT', type: 'checkbox' })).toBe('other');
    expect(focusKind({ tagName: 'BUTTON' })).toBe('other');
    expect(focusKind({ tagName: 'BODY' })).toBe('other');
    expect(focusKind(null)).toBe('other');
  });
});

describe('the table', () => {
  it('has one entry per id and no two entries on the same keys', () => {
    expect(new Set(SHORTCUTS.map((s) => s.id)).size).toBe(SHORTCUTS.length);
    const keys = SHORTCUTS.map((s) => `${s.mod ? 'mod+' : ''}${s.shift ? 'shift+' : ''}${s.key}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(SHORTCUTS.filter((s) => s.inText).every((s) => s.mod)).toBe(true);
  });

  it('shows keys per platform', () => {
    expect(keysOf(shortcut('palette'), false)).toEqual(['Ctrl', 'K']);
    expect(keysOf(shortcut('palette'), true)).toEqual(['⌘', 'K']);
    expect(keysOf(shortcut('rerun'), false)).toEqual(['Ctrl', 'Shift', 'Enter']);
    expect(keysOf(shortcut('focus-filter'), false)).toEqual(['/']);
    expect(isMac('MacIntel')).toBe(true);
    expect(isMac('Linux x86_64')).toBe(false);
  });
});
