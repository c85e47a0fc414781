/**
 * The page a person lands on after signing in (`GET /oauth/callback`): the engine's callbacks
 * (proxy/oauth/callback.ts) decide what happened and what to say; this face draws it. Every word
 * is escaped (the error and its description come from the authorization server's redirect).
 */
import type { ServerResponse } from 'node:http';
import type { CallbackNotice } from '../../oauth/callback.ts';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function sendCallbackPage(res: ServerResponse, { status, title, text }: CallbackNotice): void {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · MCP Loupe</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;
  res
    .writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // The URL held the code: it must not travel further as a Referer.
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
    })
    .end(body);
}
