import { describe, expect, it } from 'vitest';
import { base64Bytes, normaliseBlock, normaliseToolResult } from './tool-result.ts';

const PNG = 'iVBORw0KGgo=';

describe('normaliseToolResult', () => {
  it('keeps text, structuredContent and isError', () => {
    const result = normaliseToolResult({
      content: [{ type: 'text', text: 'Echo: hi' }],
      structuredContent: { temperature: 22 },
      isError: true,
    });
    expect(result).toEqual({
      blocks: [{ kind: 'text', text: 'Echo: hi' }],
      structuredContent: { value: { temperature: 22 } },
      isError: true,
      problems: [],
    });
  });

  it('renders good blocks and flags bad ones in the same result', () => {
    const result = normaliseToolResult({ content: [{ type: 'text', text: 'ok' }, { type: 'hologram' }, 42, { type: 'text' }] });
    expect(result.blocks.map((b) => b.kind)).toEqual(['text', 'unknown', 'unknown', 'unknown']);
    expect(result.blocks[1]).toMatchObject({ problem: 'unknown block type "hologram"' });
    expect(result.blocks[2]).toMatchObject({ problem: 'content block is not an object' });
    expect(result.blocks[3]).toMatchObject({ problem: 'text block needs a string "text"' });
  });

  it('reports result-level problems without throwing', () => {
    expect(normaliseToolResult(null).problems).toEqual(['result is not an object']);
    expect(normaliseToolResult({ content: 'text' }).problems).toEqual(['"content" is not an array']);
    expect(normaliseToolResult({}).problems).toEqual(['result has no "content"']);
    expect(normaliseToolResult({ structuredContent: null })).toEqual({ blocks: [], structuredContent: { value: null }, isError: false, problems: [] });
    expect(normaliseToolResult({ content: [], isError: 'yes' })).toMatchObject({ isError: false, problems: ['"isError" is not a boolean'] });
  });
});

describe('media blocks', () => {
  it('gives raster images a data URL', () => {
    expect(normaliseBlock({ type: 'image', mimeType: 'image/png', data: PNG })).toEqual({
      kind: 'image',
      mimeType: 'image/png',
      bytes: 8,
      src: `data:image/png;base64,${PNG}`,
    });
  });

  it('never gives SVG (or other non-raster types) a data URL', () => {
    const svg = normaliseBlock({ type: 'image', mimeType: 'image/svg+xml', data: btoa('<svg onload="x()"/>') });
    expect(svg).toMatchObject({ kind: 'image', problem: 'SVG is not displayed (it can carry scripts)' });
    expect(svg).not.toHaveProperty('src');
    expect(normaliseBlock({ type: 'image', mimeType: 'text/html', data: PNG })).not.toHaveProperty('src');
    expect(normaliseBlock({ type: 'image', mimeType: 'image/png";x', data: PNG })).not.toHaveProperty('src');
  });

  it('flags bad base64 and missing fields', () => {
    expect(normaliseBlock({ type: 'image', mimeType: 'image/png', data: 'not base64!' })).toMatchObject({ problem: '"data" is not valid base64' });
    expect(normaliseBlock({ type: 'image', data: PNG })).toMatchObject({ kind: 'unknown' });
  });

  it('gives audio a data URL for known audio types', () => {
    expect(normaliseBlock({ type: 'audio', mimeType: 'audio/wav', data: 'AAAA' })).toMatchObject({ kind: 'audio', src: 'data:audio/wav;base64,AAAA' });
    expect(normaliseBlock({ type: 'audio', mimeType: 'video/mp4', data: 'AAAA' })).not.toHaveProperty('src');
  });
});

describe('resources', () => {
  it('reads resource links', () => {
    expect(normaliseBlock({ type: 'resource_link', uri: 'demo://r/1', name: 'r1', mimeType: 'text/plain' })).toEqual({
      kind: 'resource_link',
      uri: 'demo://r/1',
      name: 'r1',
      title: undefined,
      mimeType: 'text/plain',
      description: undefined,
    });
    expect(normaliseBlock({ type: 'resource_link' })).toMatchObject({ kind: 'unknown' });
  });

  it('reads embedded text and blob resources', () => {
    expect(normaliseBlock({ type: 'resource', resource: { uri: 'a', text: 'hello' } })).toEqual({ kind: 'resource', uri: 'a', mimeType: undefined, text: 'hello' });
    expect(normaliseBlock({ type: 'resource', resource: { uri: 'b', blob: 'AAAA', mimeType: 'application/gzip' } })).toMatchObject({ blobBytes: 3 });
    expect(normaliseBlock({ type: 'resource', resource: { uri: 'c' } })).toMatchObject({ problem: 'resource has neither "text" nor "blob"' });
    expect(normaliseBlock({ type: 'resource', resource: 'x' })).toMatchObject({ kind: 'unknown' });
  });
});

describe('base64Bytes', () => {
  it('counts decoded bytes and rejects junk', () => {
    expect(base64Bytes('')).toBe(0);
    expect(base64Bytes('AAAA')).toBe(3);
    expect(base64Bytes('AA==')).toBe(1);
    expect(base64Bytes('AAA=')).toBe(2);
    expect(base64Bytes('AA AA\n')).toBe(3);
    expect(base64Bytes('A')).toBeUndefined();
    expect(base64Bytes('AA=A')).toBeUndefined();
  });
});
