'use client';
/**
 * The `All servers` entry's view (issue 9, "All servers views"). For now it says what it will
 * hold; the merged History (time order, a `Server` column, a server filter) and the aggregated
 * `server__tool` list build on the session registry: `services.sessions.get(id)` for each
 * session gives its trace index (`trace`), tool list (`tools`) and call store (`call`), and
 * selecting this entry already subscribes the tab to every session's events.
 */
import type { ReactNode } from 'react';
import { Note, Panel } from '@/components/ui.tsx';
import { useLoupeSelector } from './use-loupe.ts';

export function AllServersView(): ReactNode {
  const count = useLoupeSelector((s) => s.order.length);
  return (
    <Panel label="All servers" title={`All servers (${count})`}>
      <Note>
        The merged views of every server will be here: one History ordered by time with a Server column and a server filter, and every tool as
        server__tool, searchable and runnable across servers. Select a server on the left to see its own tabs.
      </Note>
    </Panel>
  );
}
