/**
 * One server as text to copy (issue 9, item 5): the four forms of lib/config/export.ts, each in a
 * read-only box with a Copy button. The page only ever holds secrets as references
 * (`${input:…}` / `${env:…}`), so that is all an export can contain.
 */
import { useId, useState, type ReactNode } from 'react';
import { EXPORT_FORMATS, exportServer, type ExportFormat } from '../../lib/config/export.ts';
import type { InputDecl, WorkspaceServer } from '../../lib/workspace/workspace.ts';
import { Text } from '../ui/text.tsx';
import { buttonClass, inputClass, Panel } from '../ui/ui.tsx';

export interface ExportServerProps {
  server: WorkspaceServer;
  /** The workspace's input declarations (descriptions for the VS Code form). */
  inputs: readonly InputDecl[];
  onClose(): void;
}

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

function ExportBox({ label, text }: { label: string; text: string }): ReactNode {
  const id = useId();
  const [copied, setCopied] = useState<string>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('Copied');
    } catch (e) {
      setCopied(`Could not copy: ${e instanceof Error ? e.message : String(e)} (select the text instead)`);
    }
  };
  return (
    <div className="space-y-1">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-xs font-medium text-zinc-700 dark:text-zinc-200">{label}</label>
        <span className="flex items-center gap-2 text-xs">
          {copied && <span role="status"><Text>{copied}</Text></span>}
          <button type="button" className={small} aria-label={`Copy ${label}`} onClick={() => void copy()}>Copy</button>
        </span>
      </div>
      <textarea id={id} readOnly rows={Math.min(12, text.split('\n').length + 1)} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={text} />
    </div>
  );
}

export function ExportServer({ server, inputs, onClose }: ExportServerProps): ReactNode {
  const title = `Export ${server.name}`;
  return (
    <Panel label={title} title={title} actions={<button type="button" className={small} onClick={onClose}>Close</button>}>
      <div className="space-y-3">
        {EXPORT_FORMATS.map(({ format, label }: { format: ExportFormat; label: string }) => (
          <ExportBox key={format} label={label} text={exportServer(server, format, inputs)} />
        ))}
      </div>
    </Panel>
  );
}
