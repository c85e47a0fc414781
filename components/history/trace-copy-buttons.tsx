/** Copy buttons for a frame: the frame as sent, the message as pretty JSON-RPC, its params (or result). */
import { useEffect, useState, type ReactNode } from 'react';
import { buttonClass } from '../ui/ui.tsx';

export interface CopyChoice {
  /** The button's name, e.g. "Copy frame". */
  label: string;
  /** Undefined: nothing to copy (the button is disabled). */
  text?: string;
}

/** Clipboard API where the page may use it (127.0.0.1 is a secure context), else the old selection trick. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

export function CopyButtons({ choices }: { choices: readonly CopyChoice[] }): ReactNode {
  const [done, setDone] = useState<string>();
  useEffect(() => {
    if (done === undefined) return;
    const timer = setTimeout(() => setDone(undefined), 2_000);
    return () => clearTimeout(timer);
  }, [done]);
  const copy = async (choice: CopyChoice) => {
    if (choice.text === undefined) return;
    setDone((await copyText(choice.text)) ? `Copied: ${choice.label.replace(/^Copy /, '')}` : 'Could not copy');
  };
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      {choices.map((choice) => (
        <button key={choice.label} type="button" disabled={choice.text === undefined} className={`${buttonClass} !px-2 !py-0.5 !text-xs`} onClick={() => void copy(choice)}>
          {choice.label}
        </button>
      ))}
      <span role="status" aria-live="polite" className="text-xs text-emerald-700 dark:text-emerald-300">{done}</span>
    </div>
  );
}
