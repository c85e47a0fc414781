import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes } from './static-files.ts';

const sha = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

describe('inlineScriptHashes', () => {
  it('hashes each inline script body once, and skips external and empty scripts', () => {
    const html = '<script src="/_next/a.js" async=""></script><script>self.__next_f.push([1])</script><script id="x">a()</script><script>a()</script><script></script>';
    expect(inlineScriptHashes(html)).toEqual([sha('self.__next_f.push([1])'), sha('a()')]);
  });

  it('finds nothing in a page without scripts', () => {
    expect(inlineScriptHashes('<html><body>hi</body></html>')).toEqual([]);
  });
});
