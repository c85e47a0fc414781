/**
 * A read resource (`resources/read`): each item of `contents` by its MIME type. Text, JSON (pretty),
 * Markdown (text-only rendering, or its source), HTML (its source, or a sandboxed frame where no
 * script runs and nothing is fetched), images, audio, and any blob as bytes to download.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { decodeBase64 } from '../../lib/content/media.ts';
import { normaliseResourceContents, type EmbeddedResource } from '../../lib/content/tool-result.ts';
import { formatDuration, formatSize } from '../../lib/trace/trace.ts';
import type { LoupeError, RpcError } from '../../lib/wire/wire.ts';
import { downloadData, fileNameFor } from '../ui/download.ts';
import { MarkdownView } from '../ui/markdown-view.tsx';
import { ResourceBody } from '../results/blocks.tsx';
import { SaveCall } from '../tools/save-call.tsx';
import { Text } from '../ui/text.tsx';
import { TextView } from '../ui/text-view.tsx';
import { Badge, buttonClass, Note } from '../ui/ui.tsx';

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

export interface ResourceRead {
  uri: string;
  status: 'loading' | 'done';
  outcome?: { ok: true; result: unknown; durationMs: number } | { ok: false; error: RpcError | LoupeError; durationMs: number };
  template?: string;
}

export interface ResourceViewProps {
  read?: ResourceRead;
  /** The server declared `resources.subscribe`. */
  canSubscribe: boolean;
  subscription?: { status: string; error?: string };
  /** `notifications/resources/updated` since this read. */
  updates: number;
  onReread(): void;
  onSubscribe(on: boolean): void;
  /** Keep this resources/read as a saved call (issue 9); returns why not. */
  onSaveCall?(name: string): string | undefined;
}

function Views<V extends string>({ views, value, onChange, label }: { views: readonly V[]; value: V; onChange(v: V): void; label: string }): ReactNode {
  return (
    <span role="group" aria-label={label} className="inline-flex overflow-hidden rounded border border-zinc-300 text-xs dark:border-zinc-600">
      {views.map((v) => <button key={v} type="button" aria-pressed={v === value} onClick={() => onChange(v)} className={`px-2 py-0.5 ${v === value ? 'bg-sky-700 text-white' : ''}`}>{v}</button>)}
    </span>
  );
}

/**
 * The preview's own policy, first in the document: nothing is fetched (not even what the page's
 * CSP would allow) and, with `sandbox=""`, nothing runs.
 */
const PREVIEW_CSP = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:">`;

/**
 * The same policy required of the frame by its parent (CSP Embedded Enforcement, Chromium): the
 * document is held to it from its first byte, so that not even a speculative fetch of an image
 * happens before the meta tag is read. Browsers without it still have the meta tag and the page's
 * own CSP. (Not in React's iframe props, hence the spread.)
 */
const EMBEDDED_CSP = { csp: "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:" };

function HtmlBody({ text, name }: { text: string; name: string }): ReactNode {
  const [view, setView] = useState<'Source' | 'Preview'>('Source');
  return (
    <div className="mt-1 space-y-1">
      <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
        <Views<'Source' | 'Preview'> views={['Source', 'Preview']} value={view} onChange={setView} label="HTML view" />
        {view === 'Preview' && <span>Sandboxed: no scripts run, nothing is loaded.</span>}
      </div>
      {view === 'Source' ? <TextView text={text} filename={name} mimeType="text/html" /> : (
        <iframe title="HTML preview (sandboxed, no scripts)" sandbox="" {...EMBEDDED_CSP} srcDoc={PREVIEW_CSP + text} referrerPolicy="no-referrer" className="h-96 w-full rounded border border-zinc-300 bg-white dark:border-zinc-600" />
      )}
    </div>
  );
}

function MarkdownBody({ text, name }: { text: string; name: string }): ReactNode {
  const [view, setView] = useState<'Rendered' | 'Source'>(text.length > 512 * 1024 ? 'Source' : 'Rendered');
  return (
    <div className="mt-1 space-y-1">
      <Views<'Rendered' | 'Source'> views={['Rendered', 'Source']} value={view} onChange={setView} label="Markdown view" />
      {view === 'Rendered' ? <div className="max-h-[36rem] overflow-auto rounded border border-zinc-200 p-2 dark:border-zinc-700"><MarkdownView text={text} /></div> : <TextView text={text} filename={name} mimeType="text/markdown" />}
    </div>
  );
}

function download(item: EmbeddedResource): void {
  const name = fileNameFor(item.uri, item.blob !== undefined ? 'resource.bin' : 'resource.txt');
  if (item.text !== undefined) downloadData(item.text, name, item.mimeType ?? 'text/plain');
  const bytes = item.blob !== undefined ? decodeBase64(item.blob) : undefined;
  if (bytes) downloadData(bytes, name, item.mimeType ?? 'application/octet-stream');
}

function ContentItem({ item }: { item: EmbeddedResource }): ReactNode {
  const name = fileNameFor(item.uri, 'resource.txt');
  const viewer = item.text !== undefined ? (item.mimeType ? undefined : 'text') : item.viewer;
  const mime = item.mimeType?.toLowerCase() ?? '';
  return (
    <li className="rounded-md border border-zinc-200 p-2 dark:border-zinc-700" data-viewer={viewer}>
      <div className="flex flex-wrap items-center gap-1 text-xs text-zinc-500 dark:text-zinc-400">
        <Badge><Text>{item.mimeType ?? 'no MIME type'}</Text></Badge>
        <span>{item.blobBytes !== undefined ? `blob, ${formatSize(item.blobBytes)}` : item.text !== undefined ? `text, ${formatSize(item.text.length)}` : ''}</span>
        {(item.text !== undefined || item.blob !== undefined) && <button type="button" className={small} onClick={() => download(item)}>Download</button>}
      </div>
      <p className="break-all font-mono text-xs"><Text>{item.uri}</Text></p>
      {item.text !== undefined && mime.startsWith('text/html') && <HtmlBody text={item.text} name={name} />}
      {item.text !== undefined && /^text\/(x-)?markdown/.test(mime) && <MarkdownBody text={item.text} name={name} />}
      {item.text !== undefined && !mime.startsWith('text/html') && !/^text\/(x-)?markdown/.test(mime) && <TextView text={item.text} filename={name} mimeType={item.mimeType} className="mt-1" />}
      {item.text === undefined && <ResourceBody resource={item} />}
      {item.blob !== undefined && item.viewer === 'binary' && <Note>Binary contents: {formatSize(item.blobBytes ?? 0)}; use Download.</Note>}
      {item.problem !== undefined && <p className="mt-1 text-xs text-amber-800 dark:text-amber-300">⚠ <Text>{item.problem}</Text></p>}
    </li>
  );
}

function Contents({ result }: { result: unknown }): ReactNode {
  const { items, problems } = useMemo(() => {
    const contents = result !== null && typeof result === 'object' ? (result as { contents?: unknown }).contents : undefined;
    if (!Array.isArray(contents)) return { items: [], problems: ['the result has no "contents" array'] };
    const read = contents.map((c) => normaliseResourceContents(c));
    const bad = read.filter((c) => c === undefined).length;
    return { items: read.filter((c): c is EmbeddedResource => c !== undefined), problems: bad > 0 ? [`${bad} item(s) of "contents" have no string "uri" and are not shown`] : [] };
  }, [result]);
  return (
    <>
      {problems.map((p) => <Note key={p} tone="warn">⚠ {p}</Note>)}
      {items.length === 0 && problems.length === 0 && <Note>The resource has no contents.</Note>}
      <ul className="space-y-2">{items.map((item, i) => <ContentItem key={i} item={item} />)}</ul>
    </>
  );
}

function SubscribeButton({ subscription, onSubscribe }: Pick<ResourceViewProps, 'subscription' | 'onSubscribe'>): ReactNode {
  const status = subscription?.status;
  const on = status === 'subscribed' || status === 'subscribing';
  return (
    <>
      <button type="button" className={small} disabled={status === 'subscribing' || status === 'unsubscribing'} onClick={() => onSubscribe(!on)}>
        {on ? 'Unsubscribe' : 'Subscribe'}
      </button>
      {status === 'subscribed' && <Badge tone="info">subscribed</Badge>}
      {status === 'failed' && <span className="text-red-700 dark:text-red-300">Subscribing failed: <Text>{subscription?.error}</Text></span>}
    </>
  );
}

export function ResourceView(props: ResourceViewProps): ReactNode {
  const { read } = props;
  if (!read) return <section aria-label="Resource"><Note>Select a resource to read it, or fill in a template.</Note></section>;
  const outcome = read.outcome;
  return (
    <section aria-label="Resource" className="space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <h2 className="min-w-0 break-all font-mono text-sm font-semibold"><Text>{read.uri}</Text></h2>
        {read.status === 'loading' && <Badge tone="info">reading…</Badge>}
        {outcome && <Badge tone={outcome.ok ? 'good' : 'bad'}>{outcome.ok ? 'read' : 'failed'}</Badge>}
        {outcome && <span className="text-zinc-500 dark:text-zinc-400">{formatDuration(outcome.durationMs)}</span>}
        {props.canSubscribe && <SubscribeButton subscription={props.subscription} onSubscribe={props.onSubscribe} />}
        <button type="button" className={small} onClick={props.onReread}>Re-read</button>
        {props.onSaveCall && <SaveCall key={read.uri} defaultName={read.uri} canSave onSave={props.onSaveCall} />}
      </div>
      {read.template !== undefined && <p className="text-xs text-zinc-500 dark:text-zinc-400">From template <Text className="font-mono">{read.template}</Text></p>}
      {props.updates > 0 && (
        <p role="status" className="rounded border border-amber-300 bg-amber-50 p-2 text-xs text-amber-900 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-200">
          The server says this resource was updated ({props.updates}× since this read). <button type="button" className="underline" onClick={props.onReread}>Re-read now</button>
        </p>
      )}
      {outcome && !outcome.ok && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {typeof outcome.error.code === 'number' ? `JSON-RPC error ${outcome.error.code}` : outcome.error.code}: <Text>{outcome.error.message}</Text>
        </p>
      )}
      {outcome?.ok && <Contents result={outcome.result} />}
    </section>
  );
}
