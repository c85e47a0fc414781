/**
 * Text from a server, possibly huge: the first part is shown at once (the page stays responsive
 * with a 20 MB result), the rest on request or as a download. JSON is detected and pretty-printed,
 * with a switch back to the raw text.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { prettyJson } from '../../lib/content/tool-result.ts';
import { utf8Length } from '../../lib/content/utf8-length.ts';
import { formatSize } from '../../lib/trace/trace.ts';
import { downloadData } from './download.ts';
import { Pre } from './text.tsx';
import { TextWindow } from './text-window.tsx';
import { buttonClass } from './ui.tsx';

/** Characters drawn at first. */
export const TEXT_PREVIEW = 64 * 1024;
/** Above this, "show all" draws a window of lines at a time (a <pre> of megabytes takes seconds to lay out). */
const WINDOW_ABOVE = 256 * 1024;

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

const looksLikeJson = (text: string): boolean => /^\s*[[{]/.test(text);

export interface TextViewProps {
  text: string;
  /** File name offered for the download. */
  filename: string;
  mimeType?: string;
  className?: string;
}

function Switch({ pretty, onPretty }: { pretty: boolean; onPretty(on: boolean): void }): ReactNode {
  return (
    <span role="group" aria-label="Text format" className="inline-flex overflow-hidden rounded border border-zinc-300 text-xs dark:border-zinc-600">
      <button type="button" aria-pressed={pretty} onClick={() => onPretty(true)} className={`px-2 py-0.5 ${pretty ? 'bg-sky-700 text-white' : ''}`}>Pretty</button>
      <button type="button" aria-pressed={!pretty} onClick={() => onPretty(false)} className={`px-2 py-0.5 ${!pretty ? 'bg-sky-700 text-white' : ''}`}>Raw</button>
    </span>
  );
}

/**
 * The text's UTF-8 size; for a long text, measured once the preview is on screen (a scan of a 5 MB
 * result takes ~5 ms the preview need not wait for, bench/tool-result-render.mjs): undefined until then.
 */
function useByteSize(text: string): number | undefined {
  const long = text.length > TEXT_PREVIEW;
  const [measured, setMeasured] = useState<{ text: string; bytes: number }>();
  useEffect(() => {
    if (long) setMeasured({ text, bytes: utf8Length(text) });
  }, [text, long]);
  if (!long) return text.length;
  return measured?.text === text ? measured.bytes : undefined;
}

export function TextView({ text, filename, mimeType = 'text/plain', className = '' }: TextViewProps): ReactNode {
  const json = useMemo(() => (looksLikeJson(text) ? prettyJson(text) : undefined), [text]);
  const [pretty, setPretty] = useState(true);
  const [all, setAll] = useState(false);
  const shown = json !== undefined && pretty ? json : text;
  const cut = !all && shown.length > TEXT_PREVIEW;
  const size = useByteSize(text);
  return (
    <div className={`rounded-md border border-zinc-200 dark:border-zinc-700 ${className}`}>
      {(json !== undefined || text.length > TEXT_PREVIEW) && (
        <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-2 py-1 text-xs text-zinc-500 dark:border-zinc-700 dark:text-zinc-400">
          {json !== undefined && <><span>JSON</span><Switch pretty={pretty} onPretty={setPretty} /></>}
          {cut && <span>Showing the first {formatSize(TEXT_PREVIEW)}{size !== undefined ? ` of ${formatSize(size)}` : ''}.</span>}
          {cut && <button type="button" className={small} onClick={() => setAll(true)}>Show all</button>}
          {all && shown.length > TEXT_PREVIEW && <button type="button" className={small} onClick={() => setAll(false)}>Show less</button>}
          {text.length > TEXT_PREVIEW && <button type="button" className={small} onClick={() => downloadData(text, filename, mimeType)}>Download</button>}
        </div>
      )}
      {all && shown.length > WINDOW_ABOVE ? <TextWindow text={shown} label="Full text" /> : <Pre className="max-h-[32rem] overflow-auto p-2">{cut ? shown.slice(0, TEXT_PREVIEW) : shown}</Pre>}
    </div>
  );
}
