/** A `prompts/get` result as a conversation: who says what (text, images, audio, embedded resources). */
import { useMemo, type ReactNode } from 'react';
import { normalisePromptResult } from '../../lib/content/prompt-messages.ts';
import { formatDuration } from '../../lib/trace/trace.ts';
import type { LoupeError, RpcError } from '../../lib/wire/wire.ts';
import { ResultBlockView } from '../results/blocks.tsx';
import { Pre, Text } from '../ui/text.tsx';
import { Badge, Note } from '../ui/ui.tsx';

export interface PromptGetView {
  name: string;
  status: 'loading' | 'done';
  outcome?: { ok: true; result: unknown; durationMs: number } | { ok: false; error: RpcError | LoupeError; durationMs: number };
}

function Conversation({ result, onOpenResource }: { result: unknown; onOpenResource?: (uri: string) => void }): ReactNode {
  const prompt = useMemo(() => normalisePromptResult(result), [result]);
  return (
    <div className="space-y-2">
      {prompt.description !== undefined && <Pre mono={false} className="text-sm text-zinc-600 dark:text-zinc-300">{prompt.description}</Pre>}
      {prompt.problems.map((p) => <Note key={p} tone="warn">⚠ {p}</Note>)}
      <ol aria-label="Messages" className="space-y-2">
        {prompt.messages.map((m, i) => (
          <li key={i} aria-label={`${m.role} message`} className={`rounded-lg border p-2 ${m.role === 'assistant' ? 'ml-6 border-violet-200 bg-violet-50/50 dark:border-violet-900 dark:bg-violet-950/30' : 'mr-6 border-sky-200 bg-sky-50/50 dark:border-sky-900 dark:bg-sky-950/30'}`}>
            <div className="mb-1 flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400"><Text>{m.role}</Text></div>
            {m.problem !== undefined && <p className="text-xs text-amber-800 dark:text-amber-300">⚠ <Text>{m.problem}</Text></p>}
            <ResultBlockView block={m.block} onOpenResource={onOpenResource} />
          </li>
        ))}
      </ol>
    </div>
  );
}

export function PromptMessages({ get, onOpenResource }: { get?: PromptGetView; onOpenResource?: (uri: string) => void }): ReactNode {
  if (!get) return <section aria-label="Prompt result"><Note>Fill in the arguments and get the prompt to see its messages.</Note></section>;
  const outcome = get.outcome;
  return (
    <section aria-label="Prompt result" className="space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <h2 className="text-sm font-semibold">Messages</h2>
        <Text className="font-mono text-zinc-500 dark:text-zinc-400">{get.name}</Text>
        {get.status === 'loading' && <Badge tone="info">getting…</Badge>}
        {outcome && <Badge tone={outcome.ok ? 'good' : 'bad'}>{outcome.ok ? 'ok' : 'failed'}</Badge>}
        {outcome && <span className="text-zinc-500 dark:text-zinc-400">{formatDuration(outcome.durationMs)}</span>}
      </div>
      {outcome && !outcome.ok && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {typeof outcome.error.code === 'number' ? `JSON-RPC error ${outcome.error.code}` : outcome.error.code}: <Text>{outcome.error.message}</Text>
        </p>
      )}
      {outcome?.ok && <Conversation result={outcome.result} onOpenResource={onOpenResource} />}
    </section>
  );
}
