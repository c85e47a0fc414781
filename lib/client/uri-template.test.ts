import { describe, expect, it } from 'vitest';
import { expandTemplate, templateVariables } from './uri-template.ts';

describe('URI templates', () => {
  it('lists variables once each, in order', () => {
    expect(templateVariables('demo://resource/dynamic/text/{resourceId}')).toEqual({ ok: true, variables: ['resourceId'] });
    expect(templateVariables('file:///{+path}{?q,lang}{&q}')).toEqual({ ok: true, variables: ['path', 'q', 'lang'] });
    expect(templateVariables('demo://{unclosed')).toMatchObject({ ok: false, error: 'Unclosed template expression' });
  });

  it('expands, encoding values and leaving empty ones out', () => {
    expect(expandTemplate('demo://r/{id}', { id: 'a b/c' })).toEqual({ ok: true, uri: 'demo://r/a%20b%2Fc' });
    expect(expandTemplate('file:///{+path}', { path: 'a/b c' })).toEqual({ ok: true, uri: 'file:///a/b%20c' });
    expect(expandTemplate('search://x{?q,lang}', { q: 'mcp', lang: '' })).toEqual({ ok: true, uri: 'search://x?q=mcp' });
  });
});
