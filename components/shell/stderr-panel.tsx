/** The server's stderr, its own stream (never dressed up as MCP log notifications). */
import { memo, type ReactNode } from 'react';
import { Pre } from '../ui/text.tsx';
import { useFollowTail } from '../ui/use-follow-tail.ts';
import { Note, Panel } from '../ui/ui.tsx';

/** Memoised: the text is compared, so a batch of frames without stderr does not redraw 64 KiB. */
export const StderrPanel = memo(function StderrPanel({ text, trimmed }: { text: string; trimmed: number }): ReactNode {
  const follow = useFollowTail(text.length + trimmed);
  return (
    <Panel title="Server stderr" label="Server stderr">
      {trimmed > 0 && <Note>{trimmed.toLocaleString('en')} earlier characters trimmed</Note>}
      {text === '' ? <Note>Nothing on stderr yet.</Note> : (
        <div ref={follow.ref} onScroll={follow.onScroll} className="max-h-64 overflow-auto rounded-md bg-zinc-950 p-2 text-zinc-100">
          <Pre>{text}</Pre>
        </div>
      )}
    </Panel>
  );
});
