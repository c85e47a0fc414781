import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.ts';

describe('LineSplitter', () => {
  it('splits lines across chunk boundaries and strips CR', () => {
    const s = new LineSplitter();
    expect(s.push(Buffer.from('{"a":1}\r\n{"b"')).lines).toEqual(['{"a":1}']);
    expect(s.push(Buffer.from(':2}\n\nnoise\n')).lines).toEqual(['{"b":2}', 'noise']);
    expect(s.flush()).toBeUndefined();
  });

  it('keeps multi-byte characters split across chunks intact', () => {
    const s = new LineSplitter();
    const bytes = Buffer.from('héllo 🦊\n');
    expect(s.push(bytes.subarray(0, 2)).lines).toEqual([]);
    expect(s.push(bytes.subarray(2, 8)).lines).toEqual([]);
    expect(s.push(bytes.subarray(8)).lines).toEqual(['héllo 🦊']);
  });

  it('passes lines larger than the SDK 10 MiB cap', () => {
    const s = new LineSplitter();
    const big = 'x'.repeat(12 * 1024 * 1024);
    const out: string[] = [];
    for (let i = 0; i < big.length; i += 65536) out.push(...s.push(Buffer.from(big.slice(i, i + 65536))).lines);
    out.push(...s.push(Buffer.from('\n')).lines);
    expect(out).toHaveLength(1);
    expect(out[0].length).toBe(big.length);
  });

  it('reports and drops a line over its cap', () => {
    const s = new LineSplitter(10);
    const r = s.push(Buffer.from('0123456789abc'));
    expect(r.overflow).toBe(13);
    expect(s.push(Buffer.from('ok\n')).lines).toEqual(['ok']);
  });

  it('returns a last unterminated line on flush', () => {
    const s = new LineSplitter();
    s.push(Buffer.from('tail'));
    expect(s.flush()).toBe('tail');
  });
});
