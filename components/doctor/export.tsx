/**
 * Tool definitions for an LLM API (issue 14, point 5): the chosen provider's format of one server's
 * tools (or every connected server's, named `server__tool`), cleaned to what that provider takes,
 * in a read-only box with Copy and Download, and the notes saying what the cleaning changed.
 */
import { useId, type ReactNode } from 'react';
import type { ExportFormat } from '../../lib/doctor/export-tools.ts';
import { downloadData } from '../ui/download.ts';
import { Text } from '../ui/text.tsx';
import { CopyButtons } from '../history/trace-copy-buttons.tsx';
import { buttonClass, inputClass, labelClass, Note, Panel } from '../ui/ui.tsx';

export const EXPORT_FORMAT_LABELS: readonly { format: ExportFormat; label: string }[] = [
  { format: 'openai', label: 'OpenAI' },
  { format: 'anthropic', label: 'Anthropic' },
  { format: 'gemini', label: 'Gemini' },
];

export interface ToolExportProps {
  /** The panel's title, e.g. `Export tools of weather`. */
  title: string;
  format: ExportFormat;
  onFormat(format: ExportFormat): void;
  /** The definitions as JSON text; undefined while there are no tools to export. */
  text?: string;
  /** What the cleaning changed, one sentence each. */
  notes: readonly string[];
  /** Why there is nothing to export yet (tools still listing, none offered …). */
  emptyNote?: string;
  /** The downloaded file's name. */
  fileName: string;
}

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

export function ToolExport({ title, format, onFormat, text, notes, emptyNote, fileName }: ToolExportProps): ReactNode {
  const formatId = useId();
  const boxId = useId();
  return (
    <Panel label="Export tool definitions" title={<Text>{title}</Text>}>
      <div className="space-y-2">
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor={formatId} className={labelClass}>Export format</label>
            <select id={formatId} className={`${inputClass} !w-auto`} value={format} onChange={(e) => onFormat(e.target.value as ExportFormat)}>
              {EXPORT_FORMAT_LABELS.map((f) => <option key={f.format} value={f.format}>{f.label}</option>)}
            </select>
          </div>
          <CopyButtons choices={[{ label: 'Copy definitions', text }]} />
          <button type="button" className={small} disabled={text === undefined} onClick={() => text !== undefined && downloadData(text, fileName, 'application/json')}>
            Download definitions
          </button>
        </div>
        {emptyNote !== undefined && <Note><Text>{emptyNote}</Text></Note>}
        <label htmlFor={boxId} className={labelClass}>Tool definitions</label>
        <textarea id={boxId} readOnly rows={text === undefined ? 3 : Math.min(20, text.split('\n').length + 1)} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={text ?? ''} />
        {notes.length > 0 && (
          <div>
            <h3 className="text-xs font-semibold text-zinc-700 dark:text-zinc-200">What the export changed</h3>
            <ul className="list-disc pl-5 text-xs text-zinc-700 dark:text-zinc-200">
              {notes.map((note, i) => <li key={i}><Text>{note}</Text></li>)}
            </ul>
          </div>
        )}
      </div>
    </Panel>
  );
}
