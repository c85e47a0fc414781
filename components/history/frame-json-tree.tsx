/**
 * Pretty JSON with collapsible objects and arrays. Each line reads as JSON (`"key": "value",`),
 * so what a user copies by hand or a test looks for is the familiar text. Server-supplied
 * strings go through <Text> (visible control characters, bidi-isolated); never as markup.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { compactJson, jsonDepth, MAX_PRETTY_DEPTH, tooDeepNote } from '../../lib/json/safe-json.ts';
import { Text } from '../ui/text.tsx';
import { Note } from '../ui/ui.tsx';

/** Containers deeper than this start collapsed when the value is big. */
const BIG_NODES = 1_500;
const LONG_STRING = 4_000;
/** Below this depth a container is drawn as its compact text, not as more tree (a value may be nested 20,000 deep). */
const MAX_TREE_DEPTH = MAX_PRETTY_DEPTH;
const DEEP_TEXT_CHARS = 2_000;

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return value !== null && typeof value === 'object';
}

function countNodes(value: unknown, limit: number): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && n <= limit) {
    const v = stack.pop();
    n += 1;
    if (isContainer(v)) for (const child of Object.values(v)) stack.push(child);
  }
  return n;
}

function Scalar({ value }: { value: unknown }): ReactNode {
  if (typeof value === 'string') {
    const shown = value.length > LONG_STRING ? `${value.slice(0, LONG_STRING)}` : value;
    return (
      <>
        <Text className="text-emerald-700 dark:text-emerald-300">{JSON.stringify(shown)}</Text>
        {shown !== value && <span className="text-zinc-500 dark:text-zinc-400"> … {value.length - LONG_STRING} more characters (see Raw)</span>}
      </>
    );
  }
  const color = typeof value === 'number' ? 'text-sky-700 dark:text-sky-300' : 'text-violet-700 dark:text-violet-300';
  return <span className={color}>{JSON.stringify(value) ?? 'undefined'}</span>;
}

interface NodeProps {
  name?: string;
  value: unknown;
  path: string;
  depth: number;
  last: boolean;
  /** Containers at this depth and below start collapsed (Infinity: everything open). */
  openDepth: number;
  /** Paths the user toggled away from how they started. */
  toggled: ReadonlySet<string>;
  toggle(path: string): void;
}

function Key({ name }: { name?: string }): ReactNode {
  if (name === undefined) return null;
  return (
    <>
      <Text className="text-zinc-800 dark:text-zinc-200">{JSON.stringify(name)}</Text>
      {': '}
    </>
  );
}

/** A container past MAX_TREE_DEPTH: its compact text (never a pretty-print: that could not end well). */
function DeepText({ name, value, indent, comma }: { name?: string; value: object; indent: { paddingLeft: string }; comma: string }): ReactNode {
  const text = useMemo(() => compactJson(value), [value]);
  return (
    <div style={indent}>
      <Key name={name} />
      <span className="text-zinc-500 dark:text-zinc-400">({tooDeepNote(MAX_TREE_DEPTH)}) </span>
      <Text>{text.length > DEEP_TEXT_CHARS ? text.slice(0, DEEP_TEXT_CHARS) : text}</Text>
      {text.length > DEEP_TEXT_CHARS && <span className="text-zinc-500 dark:text-zinc-400"> … {text.length - DEEP_TEXT_CHARS} more characters (see Raw)</span>}
      {comma}
    </div>
  );
}

function Node({ name, value, path, depth, last, openDepth, toggled, toggle }: NodeProps): ReactNode {
  const indent = { paddingLeft: `${depth * 1.1 + 1}rem` };
  const comma = last ? '' : ',';
  if (isContainer(value) && depth >= MAX_TREE_DEPTH) return <DeepText name={name} value={value} indent={indent} comma={comma} />;
  if (!isContainer(value)) {
    return (
      <div style={indent}>
        <Key name={name} />
        <Scalar value={value} />
        {comma}
      </div>
    );
  }
  const array = Array.isArray(value);
  const entries = array ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  const [open, close] = array ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    return (
      <div style={indent}>
        <Key name={name} />
        {open + close + comma}
      </div>
    );
  }
  const isCollapsed = (depth >= openDepth) !== toggled.has(path);
  const what = name === undefined ? 'the message' : name;
  const button = (
    <button type="button" aria-expanded={!isCollapsed} aria-label={`${isCollapsed ? 'Expand' : 'Collapse'} ${what}`} onClick={() => toggle(path)} className="absolute -ml-4 w-4 text-zinc-500 dark:text-zinc-400 hover:text-zinc-900 dark:hover:text-zinc-100">
      {isCollapsed ? '▸' : '▾'}
    </button>
  );
  if (isCollapsed) {
    const count = `${entries.length} ${array ? (entries.length === 1 ? 'item' : 'items') : entries.length === 1 ? 'key' : 'keys'}`;
    return (
      <div style={indent} className="relative">
        {button}
        <Key name={name} />
        {open}<span className="text-zinc-500 dark:text-zinc-400">… {count}</span>{close + comma}
      </div>
    );
  }
  return (
    <>
      <div style={indent} className="relative">
        {button}
        <Key name={name} />
        {open}
      </div>
      {entries.map(([key, child], i) => (
        <Node key={key} name={array ? undefined : key} value={child} path={`${path}/${key}`} depth={depth + 1} last={i === entries.length - 1} openDepth={openDepth} toggled={toggled} toggle={toggle} />
      ))}
      <div style={indent}>{close + comma}</div>
    </>
  );
}

/** Levels open at first in a big or deep value; each click opens one more. */
const OPEN_LEVELS = 2;

export function FrameJsonTree({ value }: { value: unknown }): ReactNode {
  // Measured without recursion: a value nested 20,000 deep must not overflow the page's stack.
  const deep = useMemo(() => jsonDepth(value, MAX_TREE_DEPTH) > MAX_TREE_DEPTH, [value]);
  const openDepth = useMemo(() => (deep || countNodes(value, BIG_NODES) > BIG_NODES ? OPEN_LEVELS : Infinity), [value, deep]);
  const [toggled, setToggled] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (path: string) =>
    setToggled((set) => {
      const next = new Set(set);
      if (!next.delete(path)) next.add(path);
      return next;
    });
  return (
    <div className="whitespace-pre-wrap break-words font-mono text-xs leading-5 [unicode-bidi:plaintext]">
      {deep && <Note>{tooDeepNote(MAX_TREE_DEPTH)}</Note>}
      <Node value={value} path="" depth={0} last openDepth={openDepth} toggled={toggled} toggle={toggle} />
    </div>
  );
}
