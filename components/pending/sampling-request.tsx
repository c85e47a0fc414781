/** What a server asked of the LLM in `sampling/createMessage`: the conversation and its settings. */
import type { ReactNode } from 'react';
import type { ModelPreferencesView, SamplingBlock, SamplingView } from '../../lib/client/sampling.ts';
import { ResultBlockView } from '../results/blocks.tsx';
import { Pre, Text } from '../ui/text.tsx';
import { Badge, Note } from '../ui/ui.tsx';
import { formatJson, stringifySafe } from '../../lib/json/safe-json.ts';

function json(value: unknown): string {
  return formatJson(value).text;
}

function Block({ block }: { block: SamplingBlock }): ReactNode {
  if (block.kind === 'content') return <ResultBlockView block={block.block} />;
  if (block.kind === 'tool_use') {
    return (
      <div className="rounded-md border border-violet-300 p-2 text-sm dark:border-violet-700">
        <div className="mb-1 flex flex-wrap items-center gap-1 text-xs"><Badge tone="info">tool_use</Badge><Text className="font-mono font-semibold">{block.name}</Text><Text className="font-mono text-zinc-500 dark:text-zinc-400">{block.id}</Text></div>
        <Pre className="max-h-48 overflow-auto">{json(block.input)}</Pre>
      </div>
    );
  }
  return (
    <div className="space-y-1 rounded-md border border-violet-300 p-2 text-sm dark:border-violet-700">
      <div className="flex flex-wrap items-center gap-1 text-xs"><Badge tone="info">tool_result</Badge><Text className="font-mono">{block.toolUseId}</Text>{block.isError && <Badge tone="bad">isError</Badge>}</div>
      {block.blocks.map((b, i) => <ResultBlockView key={i} block={b} />)}
      {block.structuredContent !== undefined && <Pre className="max-h-48 overflow-auto">{json(block.structuredContent)}</Pre>}
    </div>
  );
}

function Preferences({ prefs }: { prefs: ModelPreferencesView }): ReactNode {
  const priorities = (['costPriority', 'speedPriority', 'intelligencePriority'] as const).filter((k) => prefs[k] !== undefined);
  return (
    <span className="flex flex-wrap items-center gap-1">
      {prefs.hints.map((hint, i) => <Badge key={i} tone="info"><Text>{hint}</Text></Badge>)}
      {priorities.map((k) => <Badge key={k}>{`${k.replace('Priority', '')} ${prefs[k]}`}</Badge>)}
      {prefs.hints.length === 0 && priorities.length === 0 && <span className="text-zinc-500 dark:text-zinc-400">(empty)</span>}
    </span>
  );
}

function Setting({ term, children }: { term: string; children: ReactNode }): ReactNode {
  return (
    <>
      <dt className="text-zinc-500 dark:text-zinc-400">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

function Settings({ view }: { view: SamplingView }): ReactNode {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-xs">
      <Setting term="maxTokens">{view.maxTokens ?? '(missing)'}</Setting>
      {view.temperature !== undefined && <Setting term="temperature">{view.temperature}</Setting>}
      <Setting term="includeContext"><Text className="font-mono">{view.includeContext ?? 'none (default)'}</Text></Setting>
      {view.modelPreferences && <Setting term="modelPreferences"><Preferences prefs={view.modelPreferences} /></Setting>}
      {view.stopSequences.length > 0 && <Setting term="stopSequences"><Text className="font-mono">{view.stopSequences.map((s) => JSON.stringify(s)).join(', ')}</Text></Setting>}
      {view.toolChoice !== undefined && <Setting term="toolChoice"><Text className="font-mono">{view.toolChoice}</Text></Setting>}
      {view.task !== undefined && <Setting term="task"><Text className="font-mono">{`${stringifySafe(view.task) ?? ''} — Loupe runs it as a task; the server polls it`}</Text></Setting>}
      {view.metadata !== undefined && <Setting term="metadata"><Pre className="max-h-32 overflow-auto">{json(view.metadata)}</Pre></Setting>}
    </dl>
  );
}

function Tools({ tools }: { tools: SamplingView['tools'] }): ReactNode {
  return (
    <div>
      <h4 className="mb-1 text-xs font-semibold text-zinc-600 dark:text-zinc-300">Tools offered ({tools.length})</h4>
      <ul className="space-y-1">
        {tools.map((tool, i) => (
          <li key={i} className="rounded border border-zinc-200 p-1.5 text-xs dark:border-zinc-700">
            <Text className="font-mono font-semibold">{tool.name}</Text>
            {tool.description !== undefined && <span className="text-zinc-600 dark:text-zinc-300"> — <Text>{tool.description}</Text></span>}
            <details>
              <summary className="cursor-pointer text-zinc-500 dark:text-zinc-400">inputSchema</summary>
              <Pre className="max-h-40 overflow-auto">{json(tool.inputSchema)}</Pre>
            </details>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The request, read-only: system prompt, messages as a conversation, settings, tools. */
export function SamplingRequestView({ view }: { view: SamplingView }): ReactNode {
  return (
    <div className="space-y-2">
      {view.problems.map((p, i) => <Note key={i} tone="warn">⚠ <Text>{p}</Text></Note>)}
      {view.systemPrompt !== undefined && (
        <div className="rounded-md bg-zinc-100 p-2 text-sm dark:bg-zinc-800">
          <div className="mb-1 text-[11px] font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">System prompt</div>
          <Pre mono={false}>{view.systemPrompt}</Pre>
        </div>
      )}
      <ol aria-label="Messages" className="space-y-1.5">
        {view.messages.map((message, i) => (
          <li key={i} className={`rounded-md border p-2 ${message.role === 'assistant' ? 'ml-6 border-sky-200 bg-sky-50 dark:border-sky-800 dark:bg-sky-950/40' : 'mr-6 border-zinc-200 dark:border-zinc-700'}`}>
            <div className="mb-1 text-[11px] font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300"><Text>{message.role}</Text></div>
            <div className="space-y-1">{message.blocks.map((block, j) => <Block key={j} block={block} />)}</div>
          </li>
        ))}
      </ol>
      <Settings view={view} />
      {view.tools.length > 0 && <Tools tools={view.tools} />}
    </div>
  );
}
