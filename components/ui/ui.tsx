/** Small shared pieces of the look: badges, buttons, panels. */
import type { ReactNode } from 'react';

export type Tone = 'neutral' | 'info' | 'good' | 'warn' | 'bad';

const TONES: Record<Tone, string> = {
  neutral: 'border-zinc-300 bg-zinc-100 text-zinc-700 dark:border-zinc-600 dark:bg-zinc-800 dark:text-zinc-200',
  info: 'border-sky-300 bg-sky-50 text-sky-800 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-200',
  good: 'border-emerald-300 bg-emerald-50 text-emerald-800 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-200',
  warn: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200',
  bad: 'border-red-300 bg-red-50 text-red-800 dark:border-red-700 dark:bg-red-950 dark:text-red-200',
};

export function Badge({ tone = 'neutral', children, title }: { tone?: Tone; children: ReactNode; title?: string }): ReactNode {
  return (
    <span title={title} className={`inline-flex items-center rounded border px-1.5 py-px text-[11px] font-medium leading-4 ${TONES[tone]}`}>
      {children}
    </span>
  );
}

export const buttonClass =
  'inline-flex items-center gap-1 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 shadow-sm hover:bg-zinc-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-zinc-600 dark:bg-zinc-800 dark:text-zinc-100 dark:hover:bg-zinc-700';

export const primaryButtonClass =
  'inline-flex items-center gap-1 rounded-md border border-sky-700 bg-sky-700 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-sky-800 disabled:cursor-not-allowed disabled:opacity-50 dark:border-sky-500 dark:bg-sky-700 dark:hover:bg-sky-800';

export const inputClass =
  'w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-400 focus:border-sky-500 focus:outline-none focus:ring-2 focus:ring-sky-500/30 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100';

export const labelClass = 'mb-1 block text-xs font-medium text-zinc-600 dark:text-zinc-300';

/** A titled card. `label` names it as a region for assistive tech when given. */
export function Panel({ title, label, actions, children, className = '' }: { title?: ReactNode; label?: string; actions?: ReactNode; children: ReactNode; className?: string }): ReactNode {
  return (
    <section aria-label={label} className={`rounded-lg border border-zinc-200 bg-white p-3 shadow-sm dark:border-zinc-700 dark:bg-zinc-900 ${className}`}>
      {(title !== undefined || actions !== undefined) && (
        <div className="mb-2 flex items-center justify-between gap-2">
          {title !== undefined && <h2 className="text-sm font-semibold text-zinc-800 dark:text-zinc-100">{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

/** A muted line of text for empty states and notes. */
export function Note({ children, tone = 'neutral' }: { children: ReactNode; tone?: 'neutral' | 'warn' | 'bad' }): ReactNode {
  const color = tone === 'bad' ? 'text-red-700 dark:text-red-300' : tone === 'warn' ? 'text-amber-800 dark:text-amber-300' : 'text-zinc-500 dark:text-zinc-400';
  return <p className={`text-sm ${color}`}>{children}</p>;
}
