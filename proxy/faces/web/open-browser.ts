/**
 * Opens the user's browser on the page without putting the page's token on a command line (issue
 * 21): an opener's argv (`xdg-open URL`) is readable by every user of the machine, and the token
 * lets its holder run commands. As Jupyter's notebook server does, the opener gets a local file
 * instead: a small HTML page, readable by this user only (0600, in the 0700 runtime directory of
 * runtime-state.ts), that sends the browser on to the tokened URL. The file goes when Loupe exits.
 * Failing to open is not an error: the URL is printed.
 *
 * `$BROWSER` (as Python's webbrowser module and many CLIs read it): the first of its `:`-separated
 * commands is run instead of the platform's opener, with `%s` replaced by the file's URL or the URL
 * appended; its words are split on spaces, never given to a shell.
 */
import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runtimeDir } from '../../system/runtime-state.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The redirect page: a meta refresh for a browser without scripts, `location.replace` for one with them. */
export function redirectPage(url: string): string {
  // In a script, `<` is escaped too, so that no `</script>` can end it early.
  const script = JSON.stringify(url).replace(/</g, '\\u003c');
  return [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8">',
    '<meta name="referrer" content="no-referrer">',
    `<meta http-equiv="refresh" content="1;url=${escapeHtml(url)}">`,
    '<title>Opening MCP Loupe</title></head>',
    `<body><p>Opening MCP Loupe… If nothing happens, <a href="${escapeHtml(url)}">open it here</a>.</p>`,
    `<script>window.location.replace(${script});</script>`,
    '</body></html>',
    '',
  ].join('\n');
}

/**
 * Writes the redirect page (0600) in `dir` (made 0700, and used only if it is ours); returns its path
 * and the function that removes it, or undefined when it cannot be written safely.
 */
export function writeRedirectFile(url: string, dir = runtimeDir()): { path: string; remove(): void } | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    const me = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (!stat.isDirectory() || (me !== undefined && stat.uid !== me)) return undefined;
    if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    const path = join(dir, `open-${process.pid}.html`);
    try {
      unlinkSync(path); // one of an earlier Loupe with this pid: 'wx' below would refuse it
    } catch {
      // None: the usual case.
    }
    writeFileSync(path, redirectPage(url), { mode: 0o600, flag: 'wx' });
    let removed = false;
    const remove = () => {
      if (removed) return;
      removed = true;
      process.off('exit', remove);
      try {
        unlinkSync(path);
      } catch {
        // Gone already.
      }
    };
    process.once('exit', remove);
    return { path, remove };
  } catch {
    return undefined;
  }
}

/** The opener's command and arguments for `target` (a file:// URL): `$BROWSER`'s first command, else the platform's. */
export function openerCommand(target: string, env: Record<string, string | undefined> = process.env, platform = process.platform): [string, string[]] {
  const browser = env.BROWSER?.split(platform === 'win32' ? ';' : ':').find((c) => c.trim() !== '');
  if (browser) {
    const [command, ...args] = browser.trim().split(/\s+/);
    return [command, args.some((a) => a.includes('%s')) ? args.map((a) => a.replaceAll('%s', target)) : [...args, target]];
  }
  if (platform === 'darwin') return ['open', [target]];
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', target.replace(/&/g, '^&')]];
  return ['xdg-open', [target]];
}

/**
 * Opens the page at `url` (which carries the token) through a redirect file; returns the function
 * that removes the file (also removed when the process exits). Without a file that can be written
 * safely, nothing is opened: the printed URL is enough, and the token stays off every command line.
 */
export function openBrowser(url: string, dir?: string): () => void {
  const file = writeRedirectFile(url, dir);
  if (!file) return () => undefined;
  const [command, args] = openerCommand(pathToFileURL(file.path).href);
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener on this machine: the printed URL is enough.
  }
  return file.remove;
}
