/**
 * The browser opener (issue 21, item 3): the redirect page and its file, and the opener's command,
 * which carries the file's URL and never the page's token.
 */
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openerCommand, redirectPage, writeRedirectFile } from './open-browser.ts';

const URL_WITH_TOKEN = 'http://127.0.0.1:6280/?token=abc_DEF-123';

describe('the redirect page', () => {
  it('sends the browser on by a meta refresh and by location.replace, with a link for the rest', () => {
    const page = redirectPage(URL_WITH_TOKEN);
    expect(page).toContain(`<meta http-equiv="refresh" content="1;url=${URL_WITH_TOKEN}">`);
    expect(page).toContain(`<script>window.location.replace("${URL_WITH_TOKEN}");</script>`);
    expect(page).toContain(`<a href="${URL_WITH_TOKEN}">`);
    expect(page).toContain('<meta name="referrer" content="no-referrer">');
  });

  it('cannot be broken out of by what the URL holds', () => {
    const page = redirectPage('http://127.0.0.1:1/?a="><script>alert(1)</script>&b=\'');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('&#34;&#62;&#60;script&#62;');
    expect(page).toContain('\\u003c/script>');
  });
});

describe('the redirect file', () => {
  it('is readable by this user only, in a directory only this user can enter, and goes when removed', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'loupe-open-')), 'runtime');
    const file = writeRedirectFile(URL_WITH_TOKEN, dir)!;
    expect(file.path).toBe(join(dir, `open-${process.pid}.html`));
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(file.path, 'utf8')).toBe(redirectPage(URL_WITH_TOKEN));
    file.remove();
    expect(existsSync(file.path)).toBe(false);
    file.remove();
  });
});

describe('the opener’s command', () => {
  const target = 'file:///run/user/1000/mcp-loupe/open-42.html';

  it('is the platform’s opener with the file’s URL', () => {
    expect(openerCommand(target, {}, 'linux')).toEqual(['xdg-open', [target]]);
    expect(openerCommand(target, {}, 'darwin')).toEqual(['open', [target]]);
  });

  it('is $BROWSER’s first command when set: %s replaced, else the URL appended; no shell', () => {
    expect(openerCommand(target, { BROWSER: 'firefox' }, 'linux')).toEqual(['firefox', [target]]);
    expect(openerCommand(target, { BROWSER: 'chromium --new-window %s:firefox' }, 'linux')).toEqual(['chromium', ['--new-window', target]]);
    expect(openerCommand(target, { BROWSER: '/opt/my browser/run; rm -rf ~' }, 'linux')).toEqual(['/opt/my', ['browser/run;', 'rm', '-rf', '~', target]]);
    expect(openerCommand(target, { BROWSER: '' }, 'linux')).toEqual(['xdg-open', [target]]);
  });
});
