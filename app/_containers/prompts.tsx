'use client';
/** The Prompts tab: the list, the selected prompt's arguments with completions, and its messages. */
import type { ReactNode } from 'react';
import { ListStatus } from '@/components/ui/list-status.tsx';
import { PromptForm } from '@/components/prompts/form.tsx';
import { PromptList } from '@/components/prompts/list.tsx';
import { PromptMessages } from '@/components/prompts/messages.tsx';
import { Note, Panel } from '@/components/ui/ui.tsx';
import { completionKey } from '../_stores/completion-store.ts';
import { useSaveCall } from './saved-calls.tsx';
import { usePromptView } from '../_hooks/use-primitives.ts';
import { usePromptList, useServices, useSession, useSessionInfo } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';
import { SplitPane } from '@/components/ui/splitter.tsx';
import { usePaneSize } from '../_hooks/use-layout.ts';

export function PromptsContainer(): ReactNode {
  const { nav } = useServices();
  const services = useSession();
  const prompts = usePromptList();
  const view = usePromptView();
  const session = useSessionInfo();
  const completions = services.completions;
  const saveCall = useSaveCall();
  const pane = usePaneSize('prompts.list');
  const entries = useStore(completions);
  const sel = view.selected;
  const index = sel === undefined ? -1 : prompts.items[sel.index]?.name === sel.name ? sel.index : prompts.items.findIndex((p) => p.name === sel.name);
  const prompt = index >= 0 ? prompts.items[index] : undefined;
  const ref = prompt ? { type: 'ref/prompt' as const, name: prompt.name } : undefined;
  const values = prompt ? (view.values[prompt.name] ?? {}) : {};
  const prefix = ref ? completionKey(ref, '') : '';
  const suggestions = Object.fromEntries(Object.keys(entries).filter((k) => ref && k.startsWith(prefix)).map((k) => [k.slice(prefix.length), entries[k]]));
  const openResource = (uri: string) => {
    nav.show('resources');
    void services.resourceView.read(uri, 'link');
  };
  return (
    <SplitPane label="Resize prompt list" sized="first" defaultSize={320} min={192} max={640} otherMin={320} {...pane}>
      <Panel title={`Prompts (${prompts.items.length})`} className="min-w-0">
        <ListStatus what="prompts" {...prompts} onRefresh={() => services.prompts.refresh()} />
        <div className="mt-2"><PromptList prompts={prompts.items} selected={index >= 0 ? index : undefined} onSelect={(i) => services.promptView.select(prompts.items[i].name, i)} /></div>
      </Panel>
      <div className="min-w-0 space-y-3">
        <Panel>
          {prompt && ref ? (
            <PromptForm
              key={`${index}:${prompt.name}`}
              prompt={prompt}
              values={values}
              suggestions={suggestions}
              canGet={session?.status === 'connected'}
              onChange={(name, value) => services.promptView.setValue(prompt.name, name, value)}
              onQuery={completions.supported() ? (name, value) => completions.query(ref, name, value, { ...values, [name]: value }) : undefined}
              onGet={() => void services.promptView.get(prompt.name)}
              onSaveCall={(name) => saveCall({ name, kind: 'prompt', target: prompt.name, arguments: { ...values } })}
            />
          ) : (
            <Note>{prompts.items.length > 0 ? 'Select a prompt to fill in its arguments.' : 'Prompts appear here once the server lists them.'}</Note>
          )}
        </Panel>
        <Panel className="min-w-0"><PromptMessages get={view.get} onOpenResource={openResource} /></Panel>
      </div>
    </SplitPane>
  );
}
