/**
 * STAND-IN written by the issue-5 (History) engineer: the original components/json-tree.tsx was
 * overwritten by mistake before it was ever committed, and could not be recovered. This keeps
 * result-view.tsx's import (`<JsonTree value label />`) working on top of the History tab's
 * collapsible tree (frame-json-tree.tsx). Its owner should replace it with their own version.
 */
import type { ReactNode } from 'react';
import { FrameJsonTree } from './frame-json-tree.tsx';

export function JsonTree({ value, label }: { value: unknown; label?: string }): ReactNode {
  return (
    <div role="group" aria-label={label}>
      <FrameJsonTree value={value} />
    </div>
  );
}
