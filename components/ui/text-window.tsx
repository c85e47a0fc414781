/**
 * All of a huge text, drawn a window at a time: lines (lib/content/text-lines.ts) at a fixed height, only
 * those in view in the DOM. 20 MB scroll like 20 KB; a read-only text area of the same size takes
 * Chrome seconds to lay out.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { textLines } from '../../lib/content/text-lines.ts';
import { visibleText } from './text.tsx';

const LINE = 16;
const VIEW = 512;
const OVERSCAN = 30;

export function TextWindow({ text, label }: { text: string; label: string }): ReactNode {
  const lines = useMemo(() => textLines(text), [text]);
  const [top, setTop] = useState(0);
  const first = Math.max(0, Math.floor(top / LINE) - OVERSCAN);
  const last = Math.min(lines.length, Math.ceil((top + VIEW) / LINE) + OVERSCAN);
  return (
    <div role="region" aria-label={label} tabIndex={0} onScroll={(e) => setTop(e.currentTarget.scrollTop)} style={{ height: VIEW }} className="overflow-auto">
      <div style={{ height: lines.length * LINE, position: 'relative' }}>
        <pre style={{ position: 'absolute', top: first * LINE, lineHeight: `${LINE}px` }} className="m-0 whitespace-pre px-2 font-mono text-xs">
          {visibleText(lines.slice(first, last).join('\n'))}
        </pre>
      </div>
    </div>
  );
}
