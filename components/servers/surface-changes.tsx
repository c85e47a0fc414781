/**
 * What changed in a server's surface (issue 25): after a restart, the tools, resource templates,
 * resources and prompts added, removed or changed against the previous connect, each with its
 * severity and, under a change, every detail with its path; and two pickers to compare any two
 * points of the session. Every string from the server is text (Text), never markup.
 */
import type { ReactNode } from 'react';
import { KIND_LABEL, summarizeSurfaceDiff, type Severity, type SurfaceDiff } from '../../lib/surface/diff.ts';
import { Text } from '../ui/text.tsx';
import { Badge, Panel, inputClass, labelClass, type Tone } from '../ui/ui.tsx';

export interface SurfacePointLabel {
  id: number;
  at: number;
  reason: string;
}

export interface SurfaceChangesProps {
  points: readonly SurfacePointLabel[];
  from: SurfacePointLabel;
  to: SurfacePointLabel;
  diff: SurfaceDiff;
  /** What could not be listed at either point. */
  problems: readonly string[];
  onChoose(pair: { from: number; to: number }): void;
}

const TONE: Record<Severity, Tone> = { breaking: 'bad', warning: 'warn', info: 'neutral' };
const MARK = { added: 'added', removed: 'removed', changed: 'changed' } as const;

const time = (at: number) => new Date(at).toLocaleTimeString();
const pointName = (p: SurfacePointLabel, index: number) => `#${index + 1} ${time(p.at)} — ${p.reason}`;
const shown = (v: unknown) => (v === undefined ? '(absent)' : (JSON.stringify(v) ?? String(v)));

function Pick({ label, value, points, onPick }: { label: string; value: number; points: readonly SurfacePointLabel[]; onPick(id: number): void }): ReactNode {
  const id = `surface-${label.toLowerCase()}`;
  return (
    <div className="min-w-0 flex-1">
      <label htmlFor={id} className={labelClass}>{label}</label>
      <select id={id} className={`${inputClass} w-full`} value={value} onChange={(e) => onPick(Number(e.target.value))}>
        {points.map((p, i) => <option key={p.id} value={p.id}>{pointName(p, i)}</option>)}
      </select>
    </div>
  );
}

export function SurfaceChanges({ points, from, to, diff, problems, onChoose }: SurfaceChangesProps): ReactNode {
  const breaking = diff.breaking > 0;
  return (
    <Panel title="What changed" label="What changed">
      <p className="text-sm text-zinc-700 dark:text-zinc-200" role="status">
        <Text>{`From ${to.reason === 'connected' ? 'the connect' : to.reason.replace(/^restarted: /, 'the restart (') + (to.reason.startsWith('restarted: ') ? ')' : '')} at ${time(to.at)}: ${summarizeSurfaceDiff(diff)}.`}</Text>
        {breaking && <> <Badge tone="bad">breaking</Badge></>}
      </p>
      {diff.changes.length > 0 && (
        <ul className="mt-2 space-y-2 text-sm" aria-label="Changes">
          {diff.changes.map((c) => (
            <li key={`${c.kind}:${c.name}`} className="rounded border border-zinc-200 p-2 dark:border-zinc-700">
              <div className="flex flex-wrap items-center gap-1.5">
                <Badge tone={TONE[c.severity]}>{c.severity}</Badge>
                <span className="text-zinc-600 dark:text-zinc-300">{`${KIND_LABEL[c.kind]} ${MARK[c.change]}:`}</span>
                <span className="font-mono text-zinc-900 dark:text-zinc-100"><Text>{c.name}</Text></span>
              </div>
              {c.details.length > 0 && (
                <ul className="mt-1 space-y-0.5 pl-2 text-xs">
                  {c.details.map((d, i) => (
                    <li key={i} className="text-zinc-700 dark:text-zinc-300">
                      <Badge tone={TONE[d.severity]}>{d.severity}</Badge> <Text>{d.says}</Text>{' '}
                      <span className="font-mono text-zinc-500 dark:text-zinc-400"><Text>{d.path}</Text></span>
                      {(d.old !== undefined || d.new !== undefined) && (
                        <div className="break-all pl-1 font-mono text-zinc-500 dark:text-zinc-400"><Text>{`${shown(d.old)} → ${shown(d.new)}`}</Text></div>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      {problems.map((p) => <p key={p} className="mt-1 text-xs text-amber-800 dark:text-amber-300"><Text>{`Not compared: ${p}`}</Text></p>)}
      {points.length > 2 && (
        <div className="mt-3 flex gap-2">
          <Pick label="From" value={from.id} points={points} onPick={(id) => onChoose({ from: id, to: to.id })} />
          <Pick label="To" value={to.id} points={points} onPick={(id) => onChoose({ from: from.id, to: id })} />
        </div>
      )}
    </Panel>
  );
}
