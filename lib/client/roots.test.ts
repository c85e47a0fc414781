import { describe, expect, it } from 'vitest';
import { readRootInput, sameRoots, toRootUri } from './roots.ts';

describe('roots', () => {
  it('turns absolute paths into file URIs and keeps URIs', () => {
    expect(toRootUri('/home/me/my project')).toBe('file:///home/me/my%20project');
    expect(toRootUri('C:\\work\\repo')).toBe('file:///C:/work/repo');
    expect(toRootUri(' file:///tmp ')).toBe('file:///tmp');
    expect(toRootUri('relative/dir')).toBe('relative/dir');
  });

  it('reads the user input into a root, warning about non-file URIs', () => {
    expect(readRootInput('/tmp/a', ' A ', [])).toEqual({ ok: true, root: { uri: 'file:///tmp/a', name: 'A' } });
    expect(readRootInput('file:///tmp/a', '', [])).toEqual({ ok: true, root: { uri: 'file:///tmp/a' } });
    expect(readRootInput('https://example.com/repo', '', [])).toMatchObject({ ok: true, warning: expect.stringContaining('https:') });
    expect(readRootInput('', '', [])).toMatchObject({ ok: false });
    expect(readRootInput('relative/dir', '', [])).toMatchObject({ ok: false, error: expect.stringContaining('relative/dir') });
    expect(readRootInput('/tmp/a', '', [{ uri: 'file:///tmp/a' }])).toEqual({ ok: false, error: 'That root is in the list already' });
  });

  it('compares lists in order', () => {
    expect(sameRoots([{ uri: 'a' }], [{ uri: 'a' }])).toBe(true);
    expect(sameRoots([{ uri: 'a' }], [{ uri: 'a', name: 'A' }])).toBe(false);
    expect(sameRoots([{ uri: 'a' }, { uri: 'b' }], [{ uri: 'b' }, { uri: 'a' }])).toBe(false);
  });
});
