import { describe, expect, it } from 'vitest';
import { createSseReader } from './sse-lines.ts';

describe('createSseReader', () => {
  it('reads events split anywhere, with \\r\\n, \\r and \\n line ends, names, comments and multi-line data', () => {
    const text = ': a comment\r\nevent: first\r\ndata: one\r\ndata: two\r\n\r\ndata: {"x": 1}\n\nevent: third\rdata: ü€😀\r\r';
    const expected = [{ event: 'first', data: 'one\ntwo' }, { data: '{"x": 1}' }, { event: 'third', data: 'ü€😀' }];
    const bytes = new TextEncoder().encode(text);
    for (let size = 1; size <= 9; size++) {
      const reader = createSseReader();
      const events = [];
      // Byte chunks: a cut can fall inside a UTF-8 character.
      for (let i = 0; i < bytes.length; i += size) events.push(...reader.push(bytes.slice(i, i + size)));
      events.push(...reader.end());
      expect(events, `chunks of ${size} bytes`).toEqual(expected);
    }
  });

  it('delivers the last event when the stream ends without its blank line', () => {
    const reader = createSseReader();
    expect(reader.push('data: a\n\ndata: b')).toEqual([{ data: 'a' }]);
    expect(reader.end()).toEqual([{ data: 'b' }]);
  });

  it('keeps lines that are not SSE, such as a JSON error body', () => {
    const reader = createSseReader();
    expect([...reader.push('{"error": {"message": "no"}}\n'), ...reader.end()]).toEqual([]);
    expect(reader.stray).toEqual(['{"error": {"message": "no"}}']);
  });

  it('stops buffering past its cap and says so', () => {
    const reader = createSseReader(1000);
    reader.push(`data: ${'x'.repeat(2000)}`);
    expect(reader.overflow).toBe(true);
    expect(reader.push('\n\ndata: later\n\n')).toEqual([]);
    expect(reader.end()).toEqual([]);
  });
});
