/** One content block of a tool result, rendered as text or as a safe media element. */
import type { ReactNode } from 'react';
import type { ResultBlock } from '../lib/tool-result.ts';
import { formatSize } from '../lib/trace.ts';
import { Pre, Text } from './text.tsx';
import { Badge } from './ui.tsx';

const boxClass = 'rounded-md border border-zinc-200 p-2 dark:border-zinc-700';

function Problem({ children }: { children: string }): ReactNode {
  return <p className="mt-1 text-xs text-amber-800 dark:text-amber-300">⚠ <Text>{children}</Text></p>;
}

function Head({ kind, children }: { kind: string; children?: ReactNode }): ReactNode {
  return (
    <div className="mb-1 flex flex-wrap items-center gap-1 text-xs text-zinc-500 dark:text-zinc-400">
      <Badge>{kind}</Badge>
      {children}
    </div>
  );
}

function Media({ block }: { block: Extract<ResultBlock, { kind: 'image' | 'audio' }> }): ReactNode {
  return (
    <div className={boxClass}>
      <Head kind={block.kind}>
        <Text className="font-mono">{block.mimeType}</Text>
        <span>{formatSize(block.bytes)}</span>
      </Head>
      {block.src !== undefined && block.kind === 'image' && (
        <img src={block.src} alt={`Image returned by the tool (${block.mimeType})`} className="max-h-96 max-w-full rounded border border-zinc-200 bg-[repeating-conic-gradient(#e4e4e7_0_25%,transparent_0_50%)] bg-[length:16px_16px] dark:border-zinc-700" />
      )}
      {block.src !== undefined && block.kind === 'audio' && <audio controls src={block.src} className="w-full" />}
      {block.problem !== undefined && <Problem>{block.problem}</Problem>}
    </div>
  );
}

function Resource({ block }: { block: Extract<ResultBlock, { kind: 'resource' | 'resource_link' }> }): ReactNode {
  return (
    <div className={boxClass}>
      <Head kind={block.kind === 'resource' ? 'embedded resource' : 'resource link'}>
        {block.mimeType !== undefined && <Text className="font-mono">{block.mimeType}</Text>}
        {block.kind === 'resource' && block.blobBytes !== undefined && <span>blob, {formatSize(block.blobBytes)}</span>}
      </Head>
      <p className="break-all font-mono text-xs"><Text>{block.uri}</Text></p>
      {block.kind === 'resource_link' && (block.title ?? block.name) !== undefined && <p className="text-sm"><Text>{block.title ?? block.name}</Text></p>}
      {block.kind === 'resource_link' && block.description !== undefined && <p className="text-xs text-zinc-600 dark:text-zinc-300"><Text>{block.description}</Text></p>}
      {block.kind === 'resource' && block.text !== undefined && <Pre className="mt-1 max-h-80 overflow-auto rounded bg-zinc-50 p-2 dark:bg-zinc-800/60">{block.text}</Pre>}
      {block.kind === 'resource' && block.problem !== undefined && <Problem>{block.problem}</Problem>}
    </div>
  );
}

export function ResultBlockView({ block }: { block: ResultBlock }): ReactNode {
  switch (block.kind) {
    case 'text':
      return <Pre className="rounded-md border border-zinc-200 p-2 dark:border-zinc-700">{block.text}</Pre>;
    case 'image':
    case 'audio':
      return <Media block={block} />;
    case 'resource':
    case 'resource_link':
      return <Resource block={block} />;
    case 'unknown':
      return (
        <div className="rounded-md border border-amber-300 p-2 dark:border-amber-700">
          <Head kind={block.type ?? 'unknown'} />
          <Problem>{block.problem}</Problem>
          <Pre className="mt-1 max-h-48 overflow-auto">{JSON.stringify(block.raw, null, 2) ?? String(block.raw)}</Pre>
        </div>
      );
  }
}
