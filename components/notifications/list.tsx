/**
 * Notifications, one line each, newest at the bottom (windowed: a flood of log messages costs
 * the rows in view): logging with its level in colour, progress, list_changed, resource updates,
 * cancellations. Each links to its frame in History. Above: the category filter and the level
 * selector: `logging/setLevel` on a 2025 session, the per-request `_meta` log level on a
 * 2026-07-28 one (where `logging/setLevel` is deprecated).
 */
import type { ReactNode } from 'react';
import { LOG_LEVELS, type NotificationSummary } from '../../lib/trace/notifications.ts';
import { Text } from '../ui/text.tsx';
import { inputClass, Note } from '../ui/ui.tsx';
import { VirtualList } from '../ui/virtual-list.tsx';

export interface NotificationItem {
  seq: number;
  ts: number;
  dir?: 'in' | 'out';
  method: string;
  summary: NotificationSummary;
}

export interface LevelControl {
  /** The level last asked for. */
  value?: string;
  canSet: boolean;
  /** Why not, or a caveat (the server did not declare `logging`). */
  note?: string;
  sending: boolean;
  /** "Level set to debug" or the error. */
  result?: { ok: boolean; text: string };
}

/**
 * The log level of a 2026-07-28 session: not a request but a setting Loupe puts in every
 * request's `_meta` (`io.modelcontextprotocol/logLevel`); null asks for none.
 */
export interface ModernLevelControl {
  /** The level in use (`session.logLevel`); absent: none. */
  value?: string;
  canSet: boolean;
  note?: string;
  onSet(level: string | null): void;
}

export interface NotificationListProps {
  count: number;
  /** Item `i` of the shown ones (built lazily: only rows in view are parsed). */
  item(i: number): NotificationItem;
  version: number;
  categories: readonly { name: string; count: number }[];
  category: string;
  level: LevelControl;
  /** Set on a 2026-07-28 session: shown instead of the `logging/setLevel` selector. */
  modernLevel?: ModernLevelControl;
  onCategory(name: string): void;
  onLevel(level: string): void;
  onShowFrame(seq: number): void;
}

const ROW = 28;
export const LEVEL_COLORS: Record<string, string> = {
  debug: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
  info: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200',
  notice: 'bg-teal-100 text-teal-800 dark:bg-teal-950 dark:text-teal-200',
  warning: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  error: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
  critical: 'bg-red-600 text-white',
  alert: 'bg-red-700 text-white',
  emergency: 'bg-red-900 text-white',
};
const chip = 'rounded-full border px-2 py-0.5 text-xs';

function Row({ item, onShowFrame }: { item: NotificationItem; onShowFrame(): void }): ReactNode {
  const { summary } = item;
  return (
    <div role="listitem" style={{ height: ROW }} className="grid grid-cols-[4.5rem_5rem_2rem_7.5rem_4.5rem_minmax(10rem,16rem)_1fr] items-center gap-1 border-b border-zinc-100 px-1 font-mono text-xs dark:border-zinc-800">
      <button type="button" className="text-right tabular-nums text-sky-700 hover:underline dark:text-sky-300" onClick={onShowFrame} aria-label={`Show frame ${item.seq} in History`}>#{item.seq}</button>
      <span className="tabular-nums text-zinc-500 dark:text-zinc-400">{new Date(item.ts).toTimeString().slice(0, 8)}</span>
      <span className="text-zinc-500 dark:text-zinc-400">{item.dir === 'out' ? '→' : '←'}</span>
      <span className="truncate text-violet-700 dark:text-violet-300">{summary.category}</span>
      <span>{summary.level !== undefined && <span className={`rounded px-1 py-px text-[11px] font-semibold ${LEVEL_COLORS[summary.level] ?? LEVEL_COLORS.debug}`}><Text>{summary.level}</Text></span>}</span>
      <Text className="truncate font-semibold">{item.method}</Text>
      <Text className="truncate text-zinc-700 dark:text-zinc-200">{summary.text}</Text>
    </div>
  );
}

function LevelSelect({ level, onLevel }: { level: LevelControl; onLevel(level: string): void }): ReactNode {
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs">
      <label className="inline-flex items-center gap-1.5 text-zinc-700 dark:text-zinc-200">
        Logging level
        <select aria-label="Logging level" disabled={!level.canSet || level.sending} value={level.value ?? ''} onChange={(e) => e.target.value && onLevel(e.target.value)} className={`${inputClass} !w-auto !py-1 text-xs`}>
          <option value="" disabled>choose…</option>
          {LOG_LEVELS.map((l) => <option key={l} value={l}>{l}</option>)}
        </select>
      </label>
      {level.sending && <span className="text-zinc-500 dark:text-zinc-400">sending logging/setLevel…</span>}
      {level.result && <span role="status" aria-label="Logging level result" className={level.result.ok ? 'text-emerald-700 dark:text-emerald-300' : 'text-red-700 dark:text-red-300'}>{level.result.text}</span>}
      {level.note && <span className="text-zinc-500 dark:text-zinc-400">{level.note}</span>}
    </div>
  );
}

const NONE = 'none';

function ModernLevelSelect({ level }: { level: ModernLevelControl }): ReactNode {
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs">
      <label className="inline-flex items-center gap-1.5 text-zinc-700 dark:text-zinc-200">
        Log level
        <select aria-label="Log level" disabled={!level.canSet} value={level.value ?? NONE} onChange={(e) => level.onSet(e.target.value === NONE ? null : e.target.value)} className={`${inputClass} !w-auto !py-1 text-xs`}>
          <option value={NONE}>none</option>
          {LOG_LEVELS.map((l) => <option key={l} value={l}>{l}</option>)}
        </select>
      </label>
      <span role="status" aria-label="Log level in use" className="text-zinc-500 dark:text-zinc-400">
        {level.value === undefined ? 'Requests ask for no log messages' : <>Each request asks for <Text>{level.value}</Text> and above in its _meta</>}
      </span>
      {level.note && <span className="text-zinc-500 dark:text-zinc-400">{level.note}</span>}
    </div>
  );
}

export function NotificationList({ count, item, version, categories, category, level, modernLevel, onCategory, onLevel, onShowFrame }: NotificationListProps): ReactNode {
  const total = categories.reduce((n, c) => n + c.count, 0);
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div role="group" aria-label="Categories" className="flex flex-wrap gap-1.5">
          {[{ name: 'all', count: total }, ...categories].map((c) => {
            const on = c.name === category;
            return (
              <button key={c.name} type="button" aria-pressed={on} onClick={() => onCategory(c.name)} className={`${chip} ${on ? 'border-sky-700 bg-sky-700 text-white' : 'border-zinc-300 text-zinc-700 dark:border-zinc-600 dark:text-zinc-200'}`}>
                {c.name} ({c.count})
              </button>
            );
          })}
        </div>
        {modernLevel ? <ModernLevelSelect level={modernLevel} /> : <LevelSelect level={level} onLevel={onLevel} />}
      </div>
      {count === 0 ? (
        <Note>{total === 0 ? 'No notifications yet.' : 'None in this category.'}</Note>
      ) : (
        <div className="rounded-md border border-zinc-200 dark:border-zinc-700">
          <VirtualList
            count={count}
            rowHeight={ROW}
            version={version}
            height="min(65vh, 44rem)"
            followTail
            role="list"
            label="Notifications"
            renderRow={(i) => {
              const it = item(i);
              return <Row key={it.seq} item={it} onShowFrame={() => onShowFrame(it.seq)} />;
            }}
          />
        </div>
      )}
    </div>
  );
}
