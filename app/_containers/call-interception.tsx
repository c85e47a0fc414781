'use client';
/**
 * What interception did to the call the Result region shows (issue 26): "Held by rule “X”: waiting
 * in the Intercept tab" while a rule holds it, "Held by rule “X”, forwarded edited" on its result.
 * Its own component, so that only it follows the trace, not the whole Tools tab.
 */
import { useMemo, type ReactNode } from 'react';
import { callInterception, interceptionWords } from '../../lib/trace/call-interventions.ts';
import type { ToolCall } from '../_stores/call-store.ts';
import { useTrace } from '../_hooks/use-loupe.ts';

export function CallInterceptionNote({ call }: { call: ToolCall }): ReactNode {
  const view = useTrace();
  // The tab's own clock at the answer: the proxy's duration leaves out the way to the proxy and back,
  // and on a loaded machine the release of a held call can come after startedAt + duration.
  const endedAt = call.endedAt ?? (call.outcome ? call.startedAt + call.outcome.durationMs : undefined);
  const words = useMemo(() => {
    if (view.readOnly) return '';
    const story = callInterception(view.index.rows, { tool: call.tool, args: call.args, startedAt: call.startedAt, endedAt });
    return story ? interceptionWords(story, call.status === 'running') : '';
  }, [view.index, view.version, view.readOnly, call.tool, call.args, call.startedAt, call.status, endedAt]);
  if (words === '') return null;
  return (
    <p role="status" aria-label="Interception" className="mb-2 rounded-md border border-fuchsia-300 bg-fuchsia-50 px-2 py-1 text-sm text-fuchsia-900 dark:border-fuchsia-800 dark:bg-fuchsia-950/60 dark:text-fuchsia-100">
      {words}
    </p>
  );
}
