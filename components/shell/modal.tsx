/**
 * A modal dialog on the native `<dialog>` opened with `showModal()` (issue 26): the browser puts it
 * in the top layer and makes the rest of the page inert, so focus stays inside and a screen reader
 * reads only it. Escape (and the browser's own close request) calls `onClose` instead of closing
 * it behind React's back; giving focus back is the opener's (it knows where focus was).
 */
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface ModalProps {
  label: string;
  onClose(): void;
  className?: string;
  children: ReactNode;
  onKeyDown?(event: KeyboardEvent<HTMLDialogElement>): void;
}

export function Modal({ label, onClose, className = '', children, onKeyDown }: ModalProps): ReactNode {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    if (!dialog.open) dialog.showModal();
    const cancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    // A close the page did not ask for (the browser's second Escape): tell the opener.
    const closed = () => close.current();
    dialog.addEventListener('cancel', cancel);
    dialog.addEventListener('close', closed);
    return () => {
      dialog.removeEventListener('cancel', cancel);
      dialog.removeEventListener('close', closed);
      if (dialog.open) dialog.close();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      aria-label={label}
      aria-modal="true"
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (event.defaultPrevented || event.key !== 'Escape') return;
        event.preventDefault();
        onClose();
      }}
      className={`m-0 mx-auto mt-[12vh] w-[min(40rem,calc(100vw-2rem))] max-w-none rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-2xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 ${className}`}
    >
      {children}
    </dialog>
  );
}
