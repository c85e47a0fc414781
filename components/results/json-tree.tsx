/**
 * `structuredContent` (or any JSON value from a server) as a tree: objects and arrays fold,
 * children render only when open, and long ones show their first entries with a count of the rest.
 * Every key and string is text.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { compactJson, jsonDepth, MAX_PRETTY_DEPTH, tooDeepNote } from '../../lib/json/safe-json.ts';
import { Text } from '../ui/text.tsx';

/** Entries shown per object or array before "show more". */
const PAGE = 200;
/** Levels open at first. */
const OPEN_DEPTH = 2;
const LONG_STRING = 10_000;
/** Past this depth a branch is its compact text (a value may be nested 20,000 deep; the DOM and React's commit recurse). */
const MAX_TREE_DEPTH = MAX_PRETTY_DEPTH;
const DEEP_TEXT_CHARS = 2_000;

function Scalar({ value }: { value: unknown }): ReactNode {
  if (typeof value === 'string') {
    const shown = value.length > LONG_STRING ? `${value.slice(0, LONG_STRING)}… (${value.length} characters)` : value;
    return <span className="text-emerald-700 dark:text-emerald-300">&quot;<Text>{shown}</Text>&quot;</span>;
  }
  if (typeof value === 'number') return <span className="text-sky-700 dark:text-sky-300">{String(value)}</span>;
  if (typeof value === 'boolean' || value === null) return <span className="text-violet-700 dark:text-violet-300">{String(value)}</span>;
  return <span className="text-zinc-500 dark:text-zinc-400">{String(value)}</span>;
}

function Key({ name }: { name?: string }): ReactNode {
  return name === undefined ? null : <><Text className="text-zinc-700 dark:text-zinc-200">{name}</Text>: </>;
}

function Branch({ name, value, depth }: { name?: string; value: object; depth: number }): ReactNode {
  const [open, setOpen] = useState(depth < OPEN_DEPTH);
  const [limit, setLimit] = useState(PAGE);
  const isArray = Array.isArray(value);
  const entries: Array<readonly [string, unknown]> = isArray ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return (
    <li>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="text-left hover:underline">
        <span aria-hidden="true" className="inline-block w-3 text-zinc-400">{open ? '▾' : '▸'}</span>
        <Key name={name} />
        <span className="text-zinc-500 dark:text-zinc-400">{isArray ? `[${entries.length}]` : `{${entries.length}}`}</span>
      </button>
      {open && (
        <ul className="ml-4 border-l border-zinc-200 pl-2 dark:border-zinc-700">
          {entries.slice(0, limit).map(([key, child]) => <TreeNode key={key} name={key} value={child} depth={depth + 1} />)}
          {entries.length > limit && (
            <li>
              <button type="button" className="text-sky-700 underline dark:text-sky-300" onClick={() => setLimit(limit + PAGE)}>
                Show {Math.min(PAGE, entries.length - limit)} more of {entries.length - limit}
              </button>
            </li>
          )}
        </ul>
      )}
    </li>
  );
}

function DeepBranch({ name, value }: { name?: string; value: object }): ReactNode {
  const text = useMemo(() => compactJson(value), [value]);
  return (
    <li>
      <span aria-hidden="true" className="inline-block w-3" />
      <Key name={name} />
      <span className="text-zinc-500 dark:text-zinc-400">({tooDeepNote(MAX_TREE_DEPTH)}) </span>
      <Text className="break-all">{text.length > DEEP_TEXT_CHARS ? `${text.slice(0, DEEP_TEXT_CHARS)}… (${text.length} characters)` : text}</Text>
    </li>
  );
}

function TreeNode({ name, value, depth }: { name?: string; value: unknown; depth: number }): ReactNode {
  if (value !== null && typeof value === 'object') {
    return depth >= MAX_TREE_DEPTH ? <DeepBranch name={name} value={value} /> : <Branch name={name} value={value} depth={depth} />;
  }
  return (
    <li>
      <span aria-hidden="true" className="inline-block w-3" />
      <Key name={name} />
      <Scalar value={value} />
    </li>
  );
}

export function ResultJsonTree({ value, label }: { value: unknown; label: string }): ReactNode {
  // Measured without recursion, once per value.
  const deep = useMemo(() => jsonDepth(value, MAX_TREE_DEPTH) > MAX_TREE_DEPTH, [value]);
  return (
    <>
      {deep && <p className="text-xs text-zinc-500 dark:text-zinc-400">{tooDeepNote(MAX_TREE_DEPTH)}</p>}
      <ul aria-label={label} className="font-mono text-xs leading-5">
        <TreeNode value={value} depth={0} />
      </ul>
    </>
  );
}
