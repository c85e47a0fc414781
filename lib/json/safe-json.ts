/**
 * JSON text for values of any depth. `JSON.parse` in V8 reads any nesting, but `JSON.stringify`
 * recurses on the native stack and throws `RangeError: Maximum call stack size exceeded` somewhere
 * past a few thousand levels (node 20: between 1,000 and 5,000). A server can send a result nested
 * 20,000 deep, and a proxy that re-serialises it dies (issue 8). So:
 *
 * - `stringifySafe` is `JSON.stringify`, and only when that throws a RangeError (never on the hot
 *   path) our own iterative serialiser, which produces the same text with an explicit stack.
 *   There is no SDK or platform serialiser without the recursion (`JSON.rawJSON` takes primitives
 *   only), hence this one.
 * - `jsonDepth` measures nesting without recursion, so a renderer can decide to collapse.
 * - `formatJson` pretty-prints what is shallow enough and gives compact text for the rest (the
 *   indentation of a 20,000-deep value alone would be 400 million spaces).
 */

interface Frame {
  value: object;
  /** Own enumerable keys of an object; undefined for an array. */
  keys?: string[];
  i: number;
  /** An object member has been written (a comma goes before the next). */
  any: boolean;
}

function toJsonValue(value: unknown, key: string): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  return value;
}

/** The text of a non-container, or undefined for what JSON has no form for (undefined, functions, symbols). */
function scalarText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    default:
      return value === null ? 'null' : undefined;
  }
}

/** `JSON.stringify(value, null, indent)` with an explicit stack instead of recursion. */
export function stringifyIteratively(root: unknown, indent = 0): string | undefined {
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = new Set<object>();
  const pad = (depth: number): string => (indent > 0 ? '\n' + ' '.repeat(indent * depth) : '');
  /** Writes a value (a container only opens); false when it has no JSON form. */
  const write = (raw: unknown, key: string): boolean => {
    const value = toJsonValue(raw, key);
    if (value === null || typeof value !== 'object') {
      const text = scalarText(value);
      if (text !== undefined) out.push(text);
      return text !== undefined;
    }
    if (open.has(value)) throw new TypeError('Converting circular structure to JSON');
    open.add(value);
    const isArray = Array.isArray(value);
    out.push(isArray ? '[' : '{');
    stack.push({ value, keys: isArray ? undefined : Object.keys(value), i: 0, any: false });
    return true;
  };
  if (!write(root, '')) return undefined;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (step(frame, stack.length, { out, pad, colon: indent > 0 ? ': ' : ':', write })) continue;
    stack.pop();
    open.delete(frame.value);
  }
  return out.join('');
}

interface Writer {
  out: string[];
  pad(depth: number): string;
  colon: string;
  write(value: unknown, key: string): boolean;
}

/** Writes the frame's next member; false once the frame is closed. */
function step(frame: Frame, depth: number, { out, pad, colon, write }: Writer): boolean {
  if (frame.keys === undefined) {
    const items = frame.value as unknown[];
    if (frame.i < items.length) {
      const i = frame.i++;
      out.push((i > 0 ? ',' : '') + pad(depth));
      if (!write(items[i], String(i))) out.push('null');
      return true;
    }
    out.push((items.length > 0 ? pad(depth - 1) : '') + ']');
    return false;
  }
  const record = frame.value as Record<string, unknown>;
  while (frame.i < frame.keys.length) {
    const key = frame.keys[frame.i++];
    const mark = out.length;
    out.push((frame.any ? ',' : '') + pad(depth) + JSON.stringify(key) + colon);
    if (write(record[key], key)) {
      frame.any = true;
      return true;
    }
    out.length = mark; // a member without a JSON form is left out, as JSON.stringify does
  }
  out.push((frame.any ? pad(depth - 1) : '') + '}');
  return false;
}

/** `JSON.stringify`, falling back to the iterative serialiser only when the native one runs out of stack. */
export function stringifySafe(value: unknown, indent?: number): string | undefined {
  try {
    return JSON.stringify(value, null, indent);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return stringifyIteratively(value, indent ?? 0);
  }
}

/**
 * Nesting depth of a JSON value (a scalar is 0, `[]` is 1), counted without recursion. Stops
 * looking once it is past `limit` (returns limit + 1) or has visited `maxNodes` nodes.
 */
export function jsonDepth(value: unknown, limit = Number.MAX_SAFE_INTEGER, maxNodes = 1_000_000): number {
  let deepest = 0;
  let visited = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0 && visited < maxNodes) {
    const [v, depth] = stack.pop()!;
    visited += 1;
    if (v === null || typeof v !== 'object') continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (deepest > limit) return limit + 1;
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, here]);
  }
  return deepest;
}

/** Levels beyond which Loupe stops indenting and drawing trees (the rest is shown as compact text). */
export const MAX_PRETTY_DEPTH = 100;

export interface FormattedJson {
  text: string;
  /** True when the value was nested deeper than `maxDepth` and `text` is compact, not indented. */
  tooDeep: boolean;
}

/** Pretty JSON for display; compact text when nested deeper than `maxDepth`. Never throws for parsed JSON. */
export function formatJson(value: unknown, maxDepth = MAX_PRETTY_DEPTH): FormattedJson {
  const tooDeep = jsonDepth(value, maxDepth) > maxDepth;
  try {
    return { text: stringifySafe(value, tooDeep ? undefined : 2) ?? 'undefined', tooDeep };
  } catch (error) {
    return { text: `(cannot be shown as JSON: ${error instanceof Error ? error.message : String(error)})`, tooDeep };
  }
}

/** The plain sentence shown beside a value drawn collapsed because of its depth. */
export function tooDeepNote(maxDepth = MAX_PRETTY_DEPTH): string {
  return `Nested deeper than ${maxDepth} levels; shown collapsed.`;
}

/** Compact JSON text of any parsed value, for display: never throws (a cycle or BigInt gives ''). */
export function compactJson(value: unknown): string {
  try {
    return stringifySafe(value) ?? '';
  } catch {
    return '';
  }
}
