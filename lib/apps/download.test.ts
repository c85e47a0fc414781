import { describe, expect, it } from 'vitest';
import { describeFiles, fileNameFor, filesToDownload, MAX_DOWNLOAD_FILES } from './download.ts';

describe('a view’s ui/download-file request', () => {
  it('reads embedded resources and links, with tamed, distinct names and sizes in bytes', () => {
    const { files, problems } = filesToDownload([
      { type: 'resource', resource: { uri: 'file:///tmp/ré port.csv', mimeType: 'text/csv', text: 'é' } },
      { type: 'resource', resource: { uri: 'data://x/ré port.csv', blob: 'AAEC' } },
      { type: 'resource_link', uri: 'fixture://a/b', name: '../../etc/passwd' },
      { type: 'resource_link', uri: 'fixture://a/c' },
    ]);
    expect(problems).toEqual([]);
    expect(files.map(({ content: _c, ...f }) => f)).toEqual([
      { name: 'r_port.csv', mimeType: 'text/csv', uri: 'file:///tmp/ré port.csv', embedded: true, size: 2 },
      { name: 'r_port-2.csv', mimeType: 'application/octet-stream', uri: 'data://x/ré port.csv', embedded: true, size: 3 },
      { name: 'passwd', mimeType: 'application/octet-stream', uri: 'fixture://a/b', embedded: false },
      { name: 'c', mimeType: 'application/octet-stream', uri: 'fixture://a/c', embedded: false },
    ]);
    expect(files[1].content).toEqual({ base64: 'AAEC' });
    expect(describeFiles(files.slice(0, 1))).toBe('r_port.csv (text/csv, 2 B)');
    expect(describeFiles(files.slice(2, 3))).toBe('passwd (application/octet-stream, fixture://a/b, read from the server when saved)');
  });

  it('says what it left out: other blocks, empty resources, too many items, no list', () => {
    const many = Array.from({ length: MAX_DOWNLOAD_FILES + 2 }, (_, i) => ({ type: 'resource_link', uri: `x://${i}` }));
    expect(filesToDownload(many).problems).toEqual(['2 items past the first 20 were left out']);
    const { files, problems } = filesToDownload([{ type: 'text', text: 'hi' }, { type: 'resource', resource: { uri: 'x://e' } }, 7]);
    expect(files).toEqual([]);
    expect(problems).toEqual([
      'item 1 is of type "text", neither an embedded resource nor a resource link',
      'item 2 (x://e) has neither text nor blob',
      'item 3 is not a content block, neither an embedded resource nor a resource link',
    ]);
    expect(filesToDownload({}).problems).toEqual(['its contents are not a list']);
    expect(fileNameFor('x://a/..', 'file')).toBe('file');
  });
});
