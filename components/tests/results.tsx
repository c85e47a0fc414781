/**
 * A collection's latest run as a table (issue 27): each call with its status (passed, failed, error,
 * skipped), its duration, what failed in words (the assertion, the path, what was expected and what
 * was there) or why it could not run, and `Show in History` for its frames.
 */
import type { ReactNode } from 'react';
import type { AssertionVerdict, CallStatus, CallVerdict } from '../../lib/collections/types.ts';
import { formatDuration } from '../../lib/trace/trace.ts';
import { Text } from '../ui/text.tsx';
import { Badge, buttonClass } from '../ui/ui.tsx';
import { assertionWords, countsText, STATUS_TONE, valueText } from './words.ts';

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;
const cell = 'border-t border-zinc-200 px-2 py-1 align-top dark:border-zinc-700';

/** A collection's latest run, as the page shows it. */
export interface RunView {
  server: string;
  running: boolean;
  calls: readonly CallVerdict[];
  counts?: Record<CallStatus, number>;
  durationMs?: number;
  /** Why the run could not start or stopped. */
  error?: string;
}

export interface ResultsProps extends RunView {
  collection: string;
  onShowFrame(call: CallVerdict): void;
}

function Failure({ verdict }: { verdict: AssertionVerdict }): ReactNode {
  return (
    <li>
      <Text>{verdict.label || assertionWords(verdict.assertion)}</Text>
      <dl className="ml-3 grid grid-cols-[auto_1fr] gap-x-2 font-mono text-[11px]">
        {verdict.path !== undefined && (<><dt className="text-zinc-500 dark:text-zinc-400">path</dt><dd className="break-all"><Text>{verdict.path}</Text></dd></>)}
        <dt className="text-zinc-500 dark:text-zinc-400">expected</dt>
        <dd className="break-all"><Text>{valueText(verdict.expected)}</Text></dd>
        <dt className="text-zinc-500 dark:text-zinc-400">actual</dt>
        <dd className="break-all"><Text>{valueText(verdict.actual)}</Text></dd>
      </dl>
      {verdict.message && <p className="ml-3 text-zinc-600 dark:text-zinc-300"><Text>{verdict.message}</Text></p>}
    </li>
  );
}

function What({ call }: { call: CallVerdict }): ReactNode {
  const failed = call.assertions.filter((a) => !a.ok);
  if (call.status === 'failed' && failed.length > 0) return <ul className="space-y-1">{failed.map((v, i) => <Failure key={i} verdict={v} />)}</ul>;
  if (call.reason) return <Text>{call.reason}</Text>;
  if (call.status === 'passed') return <span className="text-zinc-500 dark:text-zinc-400">{call.assertions.length === 0 ? 'answered' : `${call.assertions.length} of ${call.assertions.length} held`}</span>;
  return null;
}

const hasFrames = (call: CallVerdict): boolean => call.outcome?.frames?.request !== undefined || call.outcome?.frames?.response !== undefined;

export function Results({ collection, server, running, calls, counts, durationMs, error, onShowFrame }: ResultsProps): ReactNode {
  return (
    <div className="space-y-1">
      <p role="status" className="text-xs text-zinc-700 dark:text-zinc-200">
        {error ? '' : running ? `Running on ${server}… ${calls.length} done` : counts ? `${countsText(counts)} on ${server}${durationMs !== undefined ? ` in ${formatDuration(durationMs)}` : ''}` : ''}
      </p>
      {error && <p role="alert" className="text-xs text-red-700 dark:text-red-300"><Text>{error}</Text></p>}
      {calls.length > 0 && (
        <div className="overflow-x-auto">
          <table aria-label={`Results of ${collection}`} className="w-full text-left text-xs">
            <thead>
              <tr className="text-zinc-600 dark:text-zinc-300">
                <th scope="col" className="px-2 py-1 font-medium">Call</th>
                <th scope="col" className="px-2 py-1 font-medium">Status</th>
                <th scope="col" className="px-2 py-1 font-medium">Duration</th>
                <th scope="col" className="px-2 py-1 font-medium">What happened</th>
                <th scope="col" className="px-2 py-1 font-medium">Frames</th>
              </tr>
            </thead>
            <tbody>
              {calls.map((call) => (
                <tr key={call.call}>
                  <th scope="row" className={`${cell} font-medium`}><Text>{call.call}</Text></th>
                  <td className={cell}><Badge tone={STATUS_TONE[call.status]}>{call.status}</Badge></td>
                  <td className={`${cell} whitespace-nowrap`}>{call.status === 'skipped' ? '' : formatDuration(call.durationMs)}</td>
                  <td className={cell}><What call={call} /></td>
                  <td className={cell}>{hasFrames(call) && <button type="button" className={small} onClick={() => onShowFrame(call)}>Show in History</button>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
