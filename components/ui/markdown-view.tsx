/** Markdown as text-only elements (lib/content/markdown.ts): no HTML passes, links show their address, images are named. */
import { Fragment, useMemo, type ReactNode } from 'react';
import { parseMarkdown, type MdBlock, type MdInline } from '../../lib/content/markdown.ts';
import { Pre, Text } from './text.tsx';

function Inline({ parts }: { parts: readonly MdInline[] }): ReactNode {
  return parts.map((p, i) => {
    switch (p.kind) {
      case 'code':
        return <code key={i} className="rounded bg-zinc-100 px-1 font-mono text-[0.85em] dark:bg-zinc-800"><Text>{p.text}</Text></code>;
      case 'strong':
        return <strong key={i}><Text>{p.text}</Text></strong>;
      case 'em':
        return <em key={i}><Text>{p.text}</Text></em>;
      case 'link':
        return <Fragment key={i}><span className="text-sky-700 underline decoration-dotted dark:text-sky-300"><Text>{p.text}</Text></span> <span className="font-mono text-[0.8em] text-zinc-500 dark:text-zinc-400">(<Text>{p.href}</Text>)</span></Fragment>;
      case 'image':
        return <span key={i} className="text-zinc-500 dark:text-zinc-400">[image: <Text>{p.alt}</Text> (<Text>{p.src}</Text>)]</span>;
      case 'text':
        return <Text key={i}>{p.text}</Text>;
    }
  });
}

const HEADING_SIZES = ['text-xl', 'text-lg', 'text-base', 'text-sm', 'text-sm', 'text-sm'];

function Block({ block }: { block: MdBlock }): ReactNode {
  switch (block.kind) {
    case 'heading':
      return <p role="heading" aria-level={block.level + 2} className={`mt-3 font-semibold ${HEADING_SIZES[block.level - 1]}`}><Inline parts={block.inline} /></p>;
    case 'paragraph':
      return <p className="my-2"><Inline parts={block.inline} /></p>;
    case 'quote':
      return <blockquote className="my-2 border-l-4 border-zinc-300 pl-3 text-zinc-600 dark:border-zinc-600 dark:text-zinc-300"><Inline parts={block.inline} /></blockquote>;
    case 'list': {
      const items = block.items.map((item, i) => <li key={i}><Inline parts={item} /></li>);
      return block.ordered ? <ol className="my-2 list-inside list-decimal">{items}</ol> : <ul className="my-2 list-inside list-disc">{items}</ul>;
    }
    case 'code':
      return <Pre className="my-2 overflow-auto rounded bg-zinc-100 p-2 dark:bg-zinc-800">{block.text}</Pre>;
    case 'rule':
      return <hr className="my-3 border-zinc-300 dark:border-zinc-600" />;
  }
}

export function MarkdownView({ text }: { text: string }): ReactNode {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return <div className="text-sm" data-viewer="markdown">{blocks.map((b, i) => <Block key={i} block={b} />)}</div>;
}
