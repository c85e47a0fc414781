import { describe, expect, it } from 'vitest';
import { parseIcons } from './icons.ts';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

describe('parseIcons', () => {
  it('draws raster data: icons, first', () => {
    const icons = parseIcons([{ src: 'https://example.com/i.png', sizes: ['48x48'] }, { src: PNG, mimeType: 'image/png', sizes: ['16x16', '32x32'], theme: 'dark' }]);
    expect(icons).toEqual([
      { kind: 'image', src: PNG, mimeType: 'image/png', sizes: '16x16 32x32', theme: 'dark' },
      { kind: 'placeholder', src: 'https://example.com/i.png', sizes: '48x48', reason: 'remote icons are not loaded: Loupe fetches nothing but the server' },
    ]);
  });

  it('never draws SVG, non-base64 data, or other schemes', () => {
    expect(parseIcons([{ src: 'data:image/svg+xml;base64,PHN2Zy8+' }])[0]).toMatchObject({ kind: 'placeholder', reason: /SVG/ });
    expect(parseIcons([{ src: 'data:image/png,rawbytes' }])[0]).toMatchObject({ kind: 'placeholder' });
    expect(parseIcons([{ src: 'javascript:alert(1)' }])[0]).toMatchObject({ kind: 'placeholder', reason: 'not a data: or http(s) URL' });
    expect(parseIcons([{ src: 'file:///etc/passwd' }])[0]).toMatchObject({ kind: 'placeholder' });
  });

  it('ignores junk', () => {
    expect(parseIcons(undefined)).toEqual([]);
    expect(parseIcons('x')).toEqual([]);
    expect(parseIcons([null, 1, {}, { src: 7 }, { src: '' }])).toEqual([]);
  });
});
