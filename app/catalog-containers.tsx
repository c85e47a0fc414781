'use client';
/** The Resources and Prompts tabs: read-only listings for now. */
import type { ReactNode } from 'react';
import { ListStatus } from '@/components/list-status.tsx';
import { PromptList } from '@/components/prompt-list.tsx';
import { ResourceList, TemplateList } from '@/components/resource-list.tsx';
import { Panel } from '@/components/ui.tsx';
import { usePromptList, useResourceList, useServices, useTemplateList } from './use-loupe.ts';

export function ResourcesContainer(): ReactNode {
  const services = useServices();
  const resources = useResourceList();
  const templates = useTemplateList();
  return (
    <div className="grid gap-3 lg:grid-cols-2">
      <Panel title={`Resources (${resources.items.length})`}>
        <ListStatus what="resources" {...resources} onRefresh={() => services.resources.refresh()} />
        <div className="mt-2"><ResourceList resources={resources.items} /></div>
      </Panel>
      <Panel title={`Resource templates (${templates.items.length})`}>
        <ListStatus what="resource templates" {...templates} onRefresh={() => services.templates.refresh()} />
        <div className="mt-2"><TemplateList templates={templates.items} /></div>
      </Panel>
    </div>
  );
}

export function PromptsContainer(): ReactNode {
  const services = useServices();
  const prompts = usePromptList();
  return (
    <Panel title={`Prompts (${prompts.items.length})`}>
      <ListStatus what="prompts" {...prompts} onRefresh={() => services.prompts.refresh()} />
      <div className="mt-2"><PromptList prompts={prompts.items} /></div>
    </Panel>
  );
}
