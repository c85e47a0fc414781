/**
 * What `mcp-loupe --cli` prints on stdout (issue 10): the JSON-RPC `result` as pretty JSON (the
 * default), one line (`--format json`), or the text content alone (`--format text`: a tool's text
 * blocks, a resource's text contents, a prompt's text messages — what a shell pipeline wants).
 * An MCP Apps view read with `resources/read` prints as its HTML unless JSON is asked for
 * (issue 24): that is what its author wants to see, or to pipe into a file and open.
 */
import { compactJson, formatJson } from '../json/safe-json.ts';
import { APP_MIME, decodeBase64Utf8 } from '../apps/meta.ts';

export type OutputFormat = 'pretty' | 'json' | 'text';

const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

function textOfBlock(block: unknown): string | undefined {
  const b = record(block);
  if (!b) return undefined;
  if (b.type === 'text' && typeof b.text === 'string') return b.text;
  // An embedded text resource reads as its text; other blocks are named, not dumped.
  const resource = record(b.resource);
  if (b.type === 'resource' && typeof resource?.text === 'string') return resource.text;
  if (typeof b.type === 'string') return `[${b.type}${typeof b.mimeType === 'string' ? ` ${b.mimeType}` : ''}${typeof b.uri === 'string' ? ` ${b.uri}` : ''}]`;
  return undefined;
}

/** The text content of a result, or undefined when it has none (then JSON is printed). */
export function resultText(method: string, result: unknown): string | undefined {
  const r = record(result);
  if (!r) return undefined;
  const lines: string[] = [];
  if (method === 'tools/call' && Array.isArray(r.content)) {
    for (const block of r.content) {
      const text = textOfBlock(block);
      if (text !== undefined) lines.push(text);
    }
  } else if (method === 'resources/read' && Array.isArray(r.contents)) {
    for (const content of r.contents) {
      const c = record(content);
      if (typeof c?.text === 'string') lines.push(c.text);
      else if (typeof c?.blob === 'string') lines.push(`[blob ${typeof c.mimeType === 'string' ? c.mimeType : ''} ${c.blob.length} base64 chars]`.replace('  ', ' '));
    }
  } else if (method === 'prompts/get' && Array.isArray(r.messages)) {
    for (const message of r.messages) {
      const m = record(message);
      const text = textOfBlock(m?.content);
      if (text !== undefined) lines.push(`${typeof m?.role === 'string' ? m.role : 'message'}: ${text}`);
    }
  } else return undefined;
  return lines.join('\n');
}

/** A view's HTML: a `resources/read` whose contents are all of the MCP Apps MIME type, text or base64. */
export function viewHtml(method: string, result: unknown): string | undefined {
  const contents = method === 'resources/read' ? record(result)?.contents : undefined;
  if (!Array.isArray(contents) || contents.length === 0) return undefined;
  const parts: string[] = [];
  for (const content of contents) {
    const c = record(content);
    if (c?.mimeType !== APP_MIME) return undefined;
    const html = typeof c.text === 'string' ? c.text : typeof c.blob === 'string' ? decodeBase64Utf8(c.blob) : undefined;
    if (html === undefined) return undefined;
    parts.push(html);
  }
  return parts.join('\n');
}

/** The whole stdout text for a result, newline-terminated. */
export function formatResult(method: string, result: unknown, format: OutputFormat): string {
  const html = format === 'json' ? undefined : viewHtml(method, result);
  if (html !== undefined) return html.endsWith('\n') ? html : `${html}\n`;
  if (format === 'text') {
    const text = resultText(method, result);
    if (text !== undefined) return text.endsWith('\n') || text === '' ? text : `${text}\n`;
  }
  return `${format === 'json' ? compactJson(result) : formatJson(result).text}\n`;
}
