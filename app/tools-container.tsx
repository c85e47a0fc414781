'use client';
/** The Tools tab: list, form for the selected tool, and the latest result. */
import { useState, type ReactNode } from 'react';
import { ListStatus } from '@/components/list-status.tsx';
import { ResultView } from '@/components/result-view.tsx';
import { ToolForm } from '@/components/tool-form.tsx';
import { ToolList } from '@/components/tool-list.tsx';
import { Note, Panel } from '@/components/ui.tsx';
import { currentSession } from './loupe-state.ts';
import { useCall, useLoupeSelector, useServices, useToolList } from './use-loupe.ts';

export function ToolsContainer(): ReactNode {
  const services = useServices();
  const list = useToolList();
  const { call } = useCall();
  const session = useLoupeSelector(currentSession);
  // Selection by name survives a re-list; the index disambiguates duplicate names.
  const [selected, setSelected] = useState<{ name: string; index: number }>();
  const index = selected === undefined ? -1 : list.items[selected.index]?.name === selected.name ? selected.index : list.items.findIndex((t) => t.name === selected.name);
  const tool = index >= 0 ? list.items[index] : undefined;
  const connected = session?.status === 'connected';
  const running = call?.status === 'running';
  return (
    <div className="grid min-h-0 gap-3 lg:grid-cols-[minmax(16rem,22rem)_1fr]">
      <Panel title="Tools" className="flex min-h-0 flex-col lg:max-h-[calc(100vh-9rem)]">
        <ListStatus what="tools" status={list.status} pages={list.pages} note={list.note} error={list.error} problems={list.problems} onRefresh={() => services.tools.refresh()} />
        <div className="mt-2 flex min-h-0 flex-1 flex-col">
          <ToolList tools={list.items} selected={index >= 0 ? index : undefined} onSelect={(i) => setSelected({ name: list.items[i].name, index: i })} />
        </div>
      </Panel>
      <div className="min-w-0 space-y-3">
        <Panel>
          {tool ? (
            <ToolForm
              key={`${index}:${tool.name}:${JSON.stringify(tool.inputSchema) ?? ''}`}
              tool={tool}
              canRun={connected && !running}
              cannotRunReason={!connected ? 'Connect to run tools' : running ? 'A call is running' : undefined}
              running={running}
              onRun={(args) => session && void services.call.run(session.id, tool.name, args)}
              onCancel={() => services.call.cancel()}
            />
          ) : (
            <Note>{list.items.length > 0 ? 'Select a tool to fill in its arguments.' : 'Tools appear here once the server lists them.'}</Note>
          )}
        </Panel>
        <ResultView call={call} />
      </div>
    </div>
  );
}
