import { describe, expect, it } from 'vitest';
import { parseWorkspace } from '../workspace/parse.ts';
import { serializeWorkspace } from '../workspace/serialize.ts';

const file = (otlp: unknown) => JSON.stringify({ mcpServers: { a: { command: 'node', args: ['a.js'] } }, 'x-mcp-loupe': { version: 1, otlp } });

describe('x-mcp-loupe.otlp, the workspace file’s tracing setting (issue 28)', () => {
  it('is read and written back as the file said it', () => {
    const parsed = parseWorkspace(file({ endpoint: 'http://localhost:4318', protocol: 'http/json', content: true }));
    expect(parsed.ok && parsed.value.otlp).toEqual({ endpoint: 'http://localhost:4318', protocol: 'http/json', content: true });
    expect(parsed.ok && parsed.value.notes).toEqual([]);
    const again = parsed.ok ? JSON.parse(serializeWorkspace(parsed.value)) : undefined;
    expect(again['x-mcp-loupe'].otlp).toEqual({ endpoint: 'http://localhost:4318', protocol: 'http/json', content: true });
  });

  it('refuses headers (a collector’s key does not belong in a shared file) and a bad endpoint with a note; the servers still open', () => {
    for (const bad of [{ endpoint: 'http://c:4318', headers: { 'x-api-key': 'k' } }, { endpoint: 'grpc://c:4317' }]) {
      const parsed = parseWorkspace(file(bad));
      expect(parsed.ok && parsed.value.otlp).toBeUndefined();
      expect(parsed.ok && parsed.value.servers).toHaveLength(1);
      expect(parsed.ok && parsed.value.notes.join(' ')).toContain('"x-mcp-loupe.otlp" is not a tracing setting Loupe reads');
    }
  });
});
