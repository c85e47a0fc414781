import { describe, expect, it } from 'vitest';
import { formatResult, resultText } from './cli-output.ts';

describe('formatResult', () => {
  const result = { content: [{ type: 'text', text: 'first' }, { type: 'image', mimeType: 'image/png', data: 'AAAA' }, { type: 'text', text: 'second' }] };
  it('prints pretty JSON by default and one line with json', () => {
    expect(formatResult('tools/call', result, 'pretty')).toBe(`${JSON.stringify(result, null, 2)}\n`);
    expect(formatResult('tools/call', result, 'json')).toBe(`${JSON.stringify(result)}\n`);
  });
  it('prints the text content alone with text, naming blocks that are not text', () => {
    expect(formatResult('tools/call', result, 'text')).toBe('first\n[image image/png]\nsecond\n');
    expect(resultText('resources/read', { contents: [{ uri: 'a', text: 'doc' }, { uri: 'b', blob: 'AAAA', mimeType: 'image/png' }] })).toBe('doc\n[blob image/png 4 base64 chars]');
    expect(resultText('prompts/get', { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] })).toBe('user: hi');
  });
  it('falls back to JSON for results without text content', () => {
    expect(formatResult('tools/list', { tools: [] }, 'text')).toBe('{\n  "tools": []\n}\n');
  });
  it('prints an MCP Apps view as its HTML, text or base64, unless JSON is asked for (issue 24)', () => {
    const html = '<!doctype html><p>héllo</p>';
    const asText = { contents: [{ uri: 'ui://a', mimeType: 'text/html;profile=mcp-app', text: html }] };
    const asBlob = { contents: [{ uri: 'ui://a', mimeType: 'text/html;profile=mcp-app', blob: Buffer.from(html).toString('base64') }] };
    expect(formatResult('resources/read', asText, 'pretty')).toBe(`${html}\n`);
    expect(formatResult('resources/read', asBlob, 'text')).toBe(`${html}\n`);
    expect(formatResult('resources/read', asText, 'json')).toBe(`${JSON.stringify(asText)}\n`);
    // Plain HTML (no profile) is not a view: JSON as for any other resource.
    const plain = { contents: [{ uri: 'ui://a', mimeType: 'text/html', text: html }] };
    expect(formatResult('resources/read', plain, 'pretty')).toBe(`${JSON.stringify(plain, null, 2)}\n`);
  });
});
