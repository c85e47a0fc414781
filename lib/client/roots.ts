/**
 * The roots Loupe offers a server (`roots/list`), as the user edits them.
 * A root's URI "must start with file:// for now" (spec 2025-11-25, client/roots); Loupe lets an
 * inspector send other URIs on purpose, with a warning.
 */
import type { Root } from '../wire/wire.ts';

export type RootInput = { ok: true; root: Root; warning?: string } | { ok: false; error: string };

/** An absolute POSIX or Windows path → a file:// URI (percent-encoded); anything else is kept. */
export function toRootUri(text: string): string {
  const input = text.trim();
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(input)) return input;
  const windows = /^[a-zA-Z]:[\\/]/.test(input);
  if (!input.startsWith('/') && !windows) return input;
  const path = (windows ? `/${input}` : input).replace(/\\/g, '/');
  return `file://${path.split('/').map((part, i) => (windows && i === 1 ? part : encodeURIComponent(part))).join('/')}`;
}

/** The user's URI (or path) and name → a root, or why not. */
export function readRootInput(uriText: string, nameText: string, existing: readonly Root[]): RootInput {
  const uri = toRootUri(uriText);
  if (uri === '') return { ok: false, error: 'Enter a file:// URI or an absolute path' };
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return { ok: false, error: `Not a URI or absolute path: ${uri}` };
  }
  if (existing.some((r) => r.uri === uri)) return { ok: false, error: 'That root is in the list already' };
  const name = nameText.trim();
  const root: Root = name === '' ? { uri } : { uri, name };
  return parsed.protocol === 'file:' ? { ok: true, root } : { ok: true, root, warning: `The spec allows only file:// roots for now; ${parsed.protocol} is sent as you asked` };
}

/** Whether two root lists are the same (order matters: it is what the server sees). */
export function sameRoots(a: readonly Root[], b: readonly Root[]): boolean {
  return a.length === b.length && a.every((r, i) => r.uri === b[i].uri && r.name === b[i].name);
}
