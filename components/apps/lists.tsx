/**
 * What an MCP Apps view asked of the host, in words (issue 24): the messages it asked to send (each
 * waits for the user's Approve or Deny), the files it asked to download (Download or Deny; then a
 * Save button a file, or the one file saved at once), the
 * links it asked to open (opened only by the user, in a new tab that cannot reach this one), its
 * logs, what Loupe refused, what its Content-Security-Policy blocked, its display-mode asks; the
 * model context it set last; the policy it runs under. Everything a server or a view wrote is
 * text here, never markup.
 */
import type { ReactNode } from 'react';
import type { DownloadedFile } from '../../lib/apps/download.ts';
import { formatJson } from '../../lib/json/safe-json.ts';
import type { ViewAsk } from '../../lib/wire/wire.ts';
import { Pre, Text } from '../ui/text.tsx';
import { Badge, Note, type Tone } from '../ui/ui.tsx';

const smallButton = 'rounded border border-zinc-300 px-1.5 py-0.5 text-xs hover:bg-zinc-100 dark:border-zinc-600 dark:hover:bg-zinc-800';
import { clockTime } from '../history/table.tsx';

/** The newest asks shown (the proxy keeps more). */
const SHOWN = 200;

const KINDS: Record<ViewAsk['kind'], { word: string; tone: Tone }> = {
  message: { word: 'message', tone: 'info' },
  download: { word: 'download', tone: 'info' },
  'open-link': { word: 'link', tone: 'info' },
  'model-context': { word: 'model context', tone: 'neutral' },
  log: { word: 'log', tone: 'neutral' },
  refused: { word: 'refused', tone: 'bad' },
  csp: { word: 'CSP block', tone: 'warn' },
  'display-mode': { word: 'display mode', tone: 'neutral' },
  teardown: { word: 'teardown', tone: 'neutral' },
};

const isWebLink = (url: string): boolean => /^https?:\/\//i.test(url);

const ANSWER_WORDS = { waiting: 'waiting for your answer', approved: 'approved', denied: 'denied' } as const;

/** What the asks' answers need: the answer itself, and why an ask cannot be approved now (the Playground's conversation is busy…). */
interface Answering {
  onAnswer?(id: string, approve: boolean): void;
  cannotApprove?(ask: ViewAsk): string | undefined;
  /** Approved downloads' files, by ask id, and how one is saved. */
  downloads?: Readonly<Record<string, readonly DownloadedFile[]>>;
  onSave?(file: DownloadedFile): void;
}

/** An approved download's files, each saved on its own click (a browser may refuse several saves at once). */
function SaveButtons({ files, onSave }: { files: readonly DownloadedFile[]; onSave(file: DownloadedFile): void }): ReactNode {
  return (
    <span className="flex flex-wrap items-center gap-1">
      {files.map((file, i) => (
        <button key={i} type="button" className={smallButton} onClick={() => onSave(file)}>
          Save {file.name}
        </button>
      ))}
    </span>
  );
}

/** A `ui/message` waits for the user: the view hears `sent` once approved, an error once denied. */
function Answer({ ask, onAnswer, cannotApprove }: Answering & { ask: ViewAsk }): ReactNode {
  if (ask.answer === undefined || ask.id === undefined) return null;
  const id = ask.id;
  if (ask.answer !== 'waiting' || !onAnswer) return <span className="text-xs text-zinc-600 dark:text-zinc-300">{ANSWER_WORDS[ask.answer]}</span>;
  const blocked = cannotApprove?.(ask);
  return (
    <span className="flex flex-wrap items-center gap-1">
      <span className="text-xs text-amber-800 dark:text-amber-300">{ANSWER_WORDS.waiting}</span>
      <button type="button" className={`${smallButton} disabled:opacity-50`} disabled={blocked !== undefined} onClick={() => onAnswer(id, true)}>{ask.kind === 'download' ? 'Download' : 'Approve'}</button>
      <button type="button" className={smallButton} onClick={() => onAnswer(id, false)}>Deny</button>
      {blocked !== undefined && <span className="text-xs text-zinc-600 dark:text-zinc-300"><Text>{blocked}</Text></span>}
    </span>
  );
}

function Ask({ ask, onAnswer, cannotApprove, downloads, onSave }: Answering & { ask: ViewAsk }): ReactNode {
  const files = ask.id !== undefined ? downloads?.[ask.id] : undefined;
  const kind = KINDS[ask.kind];
  return (
    <li className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-0.5 border-b border-zinc-100 py-1 last:border-0 dark:border-zinc-800">
      <span className="text-xs tabular-nums text-zinc-500 dark:text-zinc-400">{clockTime(ask.at)}</span>
      <Badge tone={kind.tone}>{kind.word}</Badge>
      <span className="min-w-0 flex-1 break-words [overflow-wrap:anywhere]"><Text>{ask.text}</Text></span>
      {ask.kind === 'open-link' && ask.url !== undefined && isWebLink(ask.url) && (
        <a className="text-sky-700 underline dark:text-sky-300" href={ask.url} target="_blank" rel="noopener noreferrer">
          Open
        </a>
      )}
      <Answer ask={ask} onAnswer={onAnswer} cannotApprove={cannotApprove} />
      {files && onSave && <SaveButtons files={files} onSave={onSave} />}
      {ask.problem !== undefined && <span className="text-xs text-red-700 dark:text-red-300"><Text>{ask.problem}</Text></span>}
      {ask.seq !== undefined && <span className="text-xs text-zinc-500 dark:text-zinc-400">frame #{ask.seq}</span>}
    </li>
  );
}

export function AskList({ asks, onAnswer, cannotApprove, downloads, onSave }: Answering & { asks: readonly ViewAsk[] }): ReactNode {
  const shown = asks.length > SHOWN ? asks.slice(-SHOWN) : asks;
  return (
    <section aria-label="Asks" className="min-w-0">
      <h3 className="mb-1 text-sm font-semibold">Asks</h3>
      {asks.length > shown.length && <Note>The {asks.length - shown.length} oldest are not shown.</Note>}
      {shown.length === 0 ? (
        <Note>The view has asked nothing yet.</Note>
      ) : (
        <ul className="max-h-64 overflow-auto text-sm">
          {shown.map((ask, i) => (
            <Ask key={ask.id ?? `${ask.at}:${i}`} ask={ask} onAnswer={onAnswer} cannotApprove={cannotApprove} downloads={downloads} onSave={onSave} />
          ))}
        </ul>
      )}
    </section>
  );
}

export function ModelContext({ value }: { value: unknown }): ReactNode {
  return (
    <section aria-label="Model context" className="min-w-0">
      <h3 className="mb-1 text-sm font-semibold">Model context</h3>
      {value === undefined ? <Note>The view has not set the model context.</Note> : <Pre className="max-h-48 overflow-auto rounded bg-zinc-50 p-2 dark:bg-zinc-950">{formatJson(value).text}</Pre>}
    </section>
  );
}

export function CspSummary({ csp, problems, allow }: { csp: string; problems: readonly string[]; allow: string }): ReactNode {
  return (
    <section aria-label="Content-Security-Policy" className="min-w-0">
      <h3 className="mb-1 text-sm font-semibold">Content-Security-Policy</h3>
      <Pre className="max-h-32 overflow-auto rounded bg-zinc-50 p-2 dark:bg-zinc-950">{csp}</Pre>
      {problems.length > 0 && (
        <ul aria-label="Declarations dropped" className="mt-1 list-inside list-disc text-sm text-amber-800 dark:text-amber-300">
          {problems.map((problem, i) => (
            <li key={i}><Text>{problem}</Text></li>
          ))}
        </ul>
      )}
      <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-300">
        Permissions (iframe allow): {allow === '' ? 'none' : <Text className="font-mono">{allow}</Text>}
      </p>
    </section>
  );
}
