import { describe, expect, it } from 'vitest';
import { base64Bytes, decodeBase64, mediaSource, viewerFor } from './media.ts';

describe('base64Bytes', () => {
  it('survives a 20 MB string (a repeated regexp group would overflow the stack)', () => {
    const data = 'QUFB'.repeat(5_000_000);
    expect(base64Bytes(data)).toBe(15_000_000);
    expect(base64Bytes(`${data}!`)).toBeUndefined();
  });

  it('accepts unpadded base64 and rejects impossible lengths', () => {
    expect(base64Bytes('QUE')).toBe(2);
    expect(base64Bytes('QUFBQ')).toBeUndefined();
    expect(base64Bytes('QU=A')).toBeUndefined();
  });
});

describe('mediaSource', () => {
  it('gives allowed media a data URL and explains the rest', () => {
    expect(mediaSource('image', 'IMAGE/PNG; x=1', 'AAAA')).toEqual({ src: 'data:image/png;base64,AAAA', bytes: 3 });
    expect(mediaSource('audio', 'audio/wav', 'AA AA')).toEqual({ src: 'data:audio/wav;base64,AAAA', bytes: 3 });
    expect(mediaSource('image', 'image/svg+xml', 'AAAA')).toMatchObject({ problem: /SVG/ });
    expect(mediaSource('image', 'image/png', '%%%')).toMatchObject({ problem: '"data" is not valid base64' });
  });
});

describe('viewerFor', () => {
  it('picks a viewer by MIME type', () => {
    expect(viewerFor('application/json')).toBe('json');
    expect(viewerFor('application/ld+json')).toBe('json');
    expect(viewerFor('text/markdown; charset=utf-8')).toBe('markdown');
    expect(viewerFor('text/html')).toBe('html');
    expect(viewerFor('image/png')).toBe('image');
    expect(viewerFor('audio/ogg')).toBe('audio');
    expect(viewerFor('text/plain')).toBe('text');
    expect(viewerFor(undefined)).toBe('text');
    expect(viewerFor('application/octet-stream')).toBe('binary');
  });
});

describe('decodeBase64', () => {
  it('decodes, or refuses', () => {
    expect(Array.from(decodeBase64('AQID') ?? [])).toEqual([1, 2, 3]);
    expect(decodeBase64('!!')).toBeUndefined();
  });
});
