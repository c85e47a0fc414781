/**
 * The `Keyboard shortcuts` dialog (`?`, issue 26): every shortcut of lib/keyboard/shortcuts.ts, the
 * same table the key listener acts on and the palette shows beside its actions, with where each acts
 * and the rule that single keys are left to text fields.
 */
import type { ReactNode } from 'react';
import { keysOf, type Shortcut } from '../../lib/keyboard/shortcuts.ts';
import { buttonClass } from '../ui/ui.tsx';
import { Modal } from './modal.tsx';
import { Keys } from './palette.tsx';

export interface ShortcutsPanelProps {
  shortcuts: readonly Shortcut[];
  mac: boolean;
  onClose(): void;
}

export function ShortcutsPanel({ shortcuts, mac, onClose }: ShortcutsPanelProps): ReactNode {
  return (
    <Modal label="Keyboard shortcuts" onClose={onClose}>
      <div className="flex items-center justify-between border-b border-zinc-200 px-3 py-2 dark:border-zinc-700">
        <h2 className="text-sm font-semibold">Keyboard shortcuts</h2>
        <button type="button" autoFocus className={`${buttonClass} !px-2 !py-0.5 !text-xs`} onClick={onClose}>Close</button>
      </div>
      <table aria-label="Shortcuts" className="w-full text-sm">
        <thead className="sr-only">
          <tr><th scope="col">Keys</th><th scope="col">Action</th><th scope="col">Where</th></tr>
        </thead>
        <tbody>
          {shortcuts.map((s) => (
            <tr key={s.id} className="border-b border-zinc-100 last:border-0 dark:border-zinc-800">
              <td className="w-40 px-3 py-1.5"><Keys keys={keysOf(s, mac)} /></td>
              <td className="px-3 py-1.5">{s.label}</td>
              <td className="px-3 py-1.5 text-xs text-zinc-600 dark:text-zinc-300">{s.where ?? (s.inText ? 'anywhere, in text fields too' : 'anywhere')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="border-t border-zinc-200 px-3 py-2 text-xs text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
        Keys without {mac ? '⌘' : 'Ctrl'} never act while a text field has the focus: there they type. Esc closes a dialog.
      </p>
    </Modal>
  );
}
