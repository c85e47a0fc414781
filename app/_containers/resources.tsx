'use client';
/** The Resources tab: resources and templates (paginated, list_changed aware), reading, subscribing. */
import { useState, type ReactNode } from 'react';
import { ListStatus } from '@/components/ui/list-status.tsx';
import { ResourceList, TemplateList } from '@/components/resources/list.tsx';
import { ResourceTemplateForm } from '@/components/resources/template-form.tsx';
import { ResourceView } from '@/components/resources/view.tsx';
import { Panel } from '@/components/ui/ui.tsx';
import { completionKey } from '../_stores/completion-store.ts';
import { useSaveCall } from './saved-calls.tsx';
import { useResourceView } from '../_hooks/use-primitives.ts';
import { useResourceList, useSession, useSessionInfo, useTemplateList } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';
import { SplitPane } from '@/components/ui/splitter.tsx';
import { usePaneSize } from '../_hooks/use-layout.ts';

function Templates({ onRead }: { onRead(uri: string, template: string): void }): ReactNode {
  const services = useSession();
  const templates = useTemplateList();
  const session = useSessionInfo();
  const completions = services.completions;
  const entries = useStore(completions);
  const [selected, setSelected] = useState<number>();
  const [values, setValues] = useState<Record<string, Record<string, string>>>({});
  const template = selected === undefined ? undefined : templates.items[selected];
  const ref = template ? { type: 'ref/resource' as const, uri: template.uriTemplate } : undefined;
  const mine = template ? (values[template.uriTemplate] ?? {}) : {};
  const suggestions = Object.fromEntries(Object.keys(entries).filter((k) => ref && k.startsWith(completionKey(ref, ''))).map((k) => [k.slice(completionKey(ref!, '').length), entries[k]]));
  return (
    <Panel title={`Resource templates (${templates.items.length})`}>
      <ListStatus what="resource templates" {...templates} onRefresh={() => services.templates.refresh()} />
      <div className="mt-2 space-y-3">
        <TemplateList templates={templates.items} selected={selected} onSelect={setSelected} />
        {template && ref && (
          <ResourceTemplateForm
            key={`${selected}:${template.uriTemplate}`}
            template={template}
            values={mine}
            suggestions={suggestions}
            canRead={session?.status === 'connected'}
            onChange={(name, value) => setValues((all) => ({ ...all, [template.uriTemplate]: { ...all[template.uriTemplate], [name]: value } }))}
            onQuery={completions.supported() ? (name, value) => completions.query(ref, name, value, { ...mine, [name]: value }) : undefined}
            onRead={(uri) => onRead(uri, template.uriTemplate)}
          />
        )}
      </div>
    </Panel>
  );
}

export function ResourcesContainer(): ReactNode {
  const services = useSession();
  const resources = useResourceList();
  const view = useResourceView();
  const session = useSessionInfo();
  const resourcesCap = session?.capabilities?.resources as { subscribe?: unknown } | undefined;
  const read = view.read;
  const saveCall = useSaveCall();
  const pane = usePaneSize('resources.list');
  return (
    <SplitPane label="Resize resource list" sized="first" defaultSize={352} min={192} max={640} otherMin={320} {...pane}>
      <div className="min-w-0 space-y-3">
        <Panel title={`Resources (${resources.items.length})`}>
          <ListStatus what="resources" {...resources} onRefresh={() => services.resources.refresh()} />
          <div className="mt-2">
            <ResourceList resources={resources.items} openUri={read?.uri} subscribed={view.subscriptions} updated={view.updated} onOpen={(uri) => void services.resourceView.read(uri, 'list')} />
          </div>
        </Panel>
        <Templates onRead={(uri, template) => void services.resourceView.read(uri, 'template', template)} />
      </div>
      <Panel className="min-w-0 self-start">
        <ResourceView
          read={read}
          canSubscribe={resourcesCap?.subscribe === true}
          subscription={read ? view.subscriptions[read.uri] : undefined}
          updates={read ? (view.updated[read.uri] ?? 0) : 0}
          onReread={() => read && void services.resourceView.read(read.uri, read.from, read.template)}
          onSubscribe={(on) => read && void services.resourceView.setSubscribed(read.uri, on)}
          onSaveCall={(name) => (read ? saveCall({ name, kind: 'resource', target: read.uri }) : undefined)}
        />
      </Panel>
    </SplitPane>
  );
}
