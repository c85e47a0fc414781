// The OAuth tab of a stdio server says in one line why there is nothing to sign in to.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { OAUTH_STDIO_NOTE, OAuthStdioNote } from './panel.tsx';

describe('OAuthStdioNote', () => {
  it('renders the region OAuth with the one-line reason', () => {
    const html = renderToStaticMarkup(createElement(OAuthStdioNote));
    expect(OAUTH_STDIO_NOTE).toBe('OAuth applies to remote (HTTP) servers; this one runs over stdio.');
    expect(html).toContain('aria-label="OAuth"');
    expect(html).toContain(OAUTH_STDIO_NOTE);
  });
});
