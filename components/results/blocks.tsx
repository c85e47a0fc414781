/**
 * One content block of a tool result (or prompt message), rendered on its own: text (raw / pretty,
 * huge ones cut), raster images and audio from `data:` URLs, resource links that open the resource,
 * embedded resources with size, MIME type and download. A bad block is flagged and shown raw.
 */
import type { ReactNode } from 'react';
import type { BlockAnnotations, EmbeddedResource, ResultBlock } from '../../lib/content/tool-result.ts';
import { decodeBase64 } from '../../lib/content/media.ts';
import { formatSize } from '../../lib/trace/trace.ts';
import { downloadData, fileNameFor } from '../ui/download.ts';
import { Pre, Text } from '../ui/text.tsx';
import { TextView } from '../ui/text-view.tsx';
import { Badge, buttonClass } from '../ui/ui.tsx';
import { formatJson } from '../../lib/json/safe-json.ts';

const boxClass = 'rounded-md border border-zinc-200 p-2 dark:border-zinc-700';
const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

function Problem({ children }: { children: string }): ReactNode {
  return <p className="mt-1 text-xs text-amber-800 dark:text-amber-300">⚠ <Text>{children}</Text></p>;
}

function Annotations({ annotations }: { annotations?: BlockAnnotations }): ReactNode {
  if (!annotations) return null;
  return (
    <>
      {annotations.audience && annotations.audience.length > 0 && <Badge title="annotations.audience">for <Text>{annotations.audience.join(', ')}</Text></Badge>}
      {annotations.priority !== undefined && <Badge title="annotations.priority">priority {annotations.priority}</Badge>}
      {annotations.lastModified !== undefined && <Badge title="annotations.lastModified"><Text>{annotations.lastModified}</Text></Badge>}
    </>
  );
}

function Head({ kind, tone, children, annotations }: { kind: string; tone?: 'warn'; children?: ReactNode; annotations?: BlockAnnotations }): ReactNode {
  return (
    <div className="mb-1 flex flex-wrap items-center gap-1 text-xs text-zinc-500 dark:text-zinc-400">
      <Badge tone={tone}>{kind}</Badge>
      {children}
      <Annotations annotations={annotations} />
    </div>
  );
}

function Media({ block }: { block: Extract<ResultBlock, { kind: 'image' | 'audio' }> }): ReactNode {
  return (
    <div className={boxClass} data-block={block.kind}>
      <Head kind={block.kind} tone={block.problem ? 'warn' : undefined} annotations={block.annotations}>
        <Text className="font-mono">{block.mimeType}</Text>
        <span>{formatSize(block.bytes)}</span>
      </Head>
      {block.src !== undefined && block.kind === 'image' && (
        <img src={block.src} alt={`Image returned by the server (${block.mimeType})`} className="max-h-96 max-w-full rounded border border-zinc-200 bg-[repeating-conic-gradient(#e4e4e7_0_25%,transparent_0_50%)] bg-[length:16px_16px] dark:border-zinc-700" />
      )}
      {block.src !== undefined && block.kind === 'audio' && <audio controls src={block.src} className="w-full" aria-label={`Audio returned by the server (${block.mimeType})`} />}
      {block.problem !== undefined && <Problem>{block.problem}</Problem>}
    </div>
  );
}

function downloadResource(resource: EmbeddedResource): void {
  const name = fileNameFor(resource.uri, resource.blob !== undefined ? 'resource.bin' : 'resource.txt');
  if (resource.text !== undefined) downloadData(resource.text, name, resource.mimeType ?? 'text/plain');
  else if (resource.blob !== undefined) {
    const bytes = decodeBase64(resource.blob);
    if (bytes) downloadData(bytes, name, resource.mimeType ?? 'application/octet-stream');
  }
}

/** The body of a resource's contents: text by its viewer, a blob as media or as bytes to download. */
export function ResourceBody({ resource }: { resource: EmbeddedResource }): ReactNode {
  const name = fileNameFor(resource.uri, 'resource.txt');
  if (resource.text !== undefined) return <TextView text={resource.text} filename={name} mimeType={resource.mimeType} className="mt-1" />;
  if (resource.src !== undefined && resource.viewer === 'image') return <img src={resource.src} alt={`Image resource (${resource.mimeType ?? 'unknown type'})`} className="mt-1 max-h-96 max-w-full rounded border border-zinc-200 dark:border-zinc-700" />;
  if (resource.src !== undefined && resource.viewer === 'audio') return <audio controls src={resource.src} className="mt-1 w-full" aria-label={`Audio resource (${resource.mimeType ?? ''})`} />;
  return null;
}

function Embedded({ block }: { block: EmbeddedResource & { annotations?: BlockAnnotations } }): ReactNode {
  const size = block.blobBytes ?? (block.text !== undefined ? block.text.length : undefined);
  return (
    <div className={boxClass} data-block="resource">
      <Head kind="embedded resource" tone={block.problem ? 'warn' : undefined} annotations={block.annotations}>
        <Text className="font-mono">{block.mimeType ?? 'no MIME type'}</Text>
        {size !== undefined && <span>{block.blobBytes !== undefined ? 'blob' : 'text'}, {formatSize(size)}</span>}
        {(block.text !== undefined || block.blob !== undefined) && <button type="button" className={small} onClick={() => downloadResource(block)}>Download</button>}
      </Head>
      <p className="break-all font-mono text-xs"><Text>{block.uri}</Text></p>
      <ResourceBody resource={block} />
      {block.problem !== undefined && <Problem>{block.problem}</Problem>}
    </div>
  );
}

function Link({ block, onOpenResource }: { block: Extract<ResultBlock, { kind: 'resource_link' }>; onOpenResource?: (uri: string) => void }): ReactNode {
  return (
    <div className={boxClass} data-block="resource_link">
      <Head kind="resource link" annotations={block.annotations}>
        {block.mimeType !== undefined && <Text className="font-mono">{block.mimeType}</Text>}
        {block.size !== undefined && <span>{formatSize(block.size)}</span>}
      </Head>
      {(block.title ?? block.name) !== undefined && <p className="text-sm"><Text>{block.title ?? block.name}</Text></p>}
      <p className="break-all font-mono text-xs"><Text>{block.uri}</Text></p>
      {block.description !== undefined && <p className="text-xs text-zinc-600 dark:text-zinc-300"><Text>{block.description}</Text></p>}
      {onOpenResource && <button type="button" className={`${small} mt-1`} onClick={() => onOpenResource(block.uri)}>Open in Resources</button>}
    </div>
  );
}

export function ResultBlockView({ block, onOpenResource }: { block: ResultBlock; onOpenResource?: (uri: string) => void }): ReactNode {
  switch (block.kind) {
    case 'text':
      return (
        <div data-block="text">
          {block.annotations && <Head kind="text" annotations={block.annotations} />}
          <TextView text={block.text} filename="result.txt" />
        </div>
      );
    case 'image':
    case 'audio':
      return <Media block={block} />;
    case 'resource':
      return <Embedded block={block} />;
    case 'resource_link':
      return <Link block={block} onOpenResource={onOpenResource} />;
    case 'unknown':
      return (
        <div className="rounded-md border border-amber-300 p-2 dark:border-amber-700" data-block="invalid">
          <Head kind={block.type === undefined ? 'invalid block' : `invalid ${block.type} block`} tone="warn" />
          <Problem>{block.problem}</Problem>
          <Pre className="mt-1 max-h-48 overflow-auto">{formatJson(block.raw).text.slice(0, 20_000)}</Pre>
        </div>
      );
  }
}
