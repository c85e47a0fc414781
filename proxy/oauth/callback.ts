/**
 * Loupe's OAuth redirect target (issue 11): `GET /oauth/callback?code=…&state=…` (or `error=…`)
 * on Loupe's own port. It needs no Loupe token: the authorization server's redirect cannot carry
 * one. What stands in for it is the `state`: unguessable, known only to the proxy and the
 * authorization server, and good once (RFC 6749 §10.12); a callback with any other state changes
 * nothing. The code goes to whoever waits for that state (a connect, or the guided flow); it is
 * never shown, logged or traced.
 */
import type { ServerResponse } from 'node:http';

/**
 * The redirect URI of a Loupe with no page (the headless modes): registered like any other, but
 * nothing needs to listen there, since the headless sign-in (headless.ts) reads the code from the
 * authorization server's redirect to it.
 */
export const HEADLESS_REDIRECT_URL = 'http://127.0.0.1/oauth/callback';

export type CallbackOutcome = { ok: true; code: string } | { ok: false; error: string };

interface Waiting {
  resolve(outcome: CallbackOutcome): void;
  timer: ReturnType<typeof setTimeout>;
  /** Where the user signed in, for the words of the page they land on. */
  where: string;
}

/** How long a sign-in may take before the connect gives up (a person reads a consent page). */
export const CALLBACK_TIMEOUT_MS = 10 * 60_000;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class OAuthCallbacks {
  private readonly waiting = new Map<string, Waiting>();

  /** Waits for the callback that carries `state`; resolves with the code, an error, or a timeout. */
  expect(state: string, where: string, timeoutMs = CALLBACK_TIMEOUT_MS): Promise<CallbackOutcome> {
    this.cancel(state, 'A newer sign-in replaced this one.');
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.finish(state, { ok: false, error: `Nobody finished signing in at ${where} within ${Math.round(timeoutMs / 60_000)} minutes.` }), timeoutMs);
      timer.unref?.();
      this.waiting.set(state, { resolve, timer, where });
    });
  }

  /** Gives up on a sign-in (disconnect, shutdown, a newer attempt). */
  cancel(state: string, why: string): void {
    this.finish(state, { ok: false, error: why });
  }

  cancelAll(why: string): void {
    for (const state of [...this.waiting.keys()]) this.cancel(state, why);
  }

  get pending(): number {
    return this.waiting.size;
  }

  private finish(state: string, outcome: CallbackOutcome): Waiting | undefined {
    const entry = this.waiting.get(state);
    if (!entry) return undefined;
    this.waiting.delete(state);
    clearTimeout(entry.timer);
    entry.resolve(outcome);
    return entry;
  }

  /** The route itself: a small page for the person, the code to the waiting sign-in. */
  handle(url: URL, res: ServerResponse): void {
    const state = url.searchParams.get('state') ?? '';
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    if (!this.waiting.has(state)) {
      return page(res, 400, 'This sign-in link is not expected', 'Loupe is not waiting for a sign-in with this state: it may have finished, timed out or been replaced. Start the sign-in again from Loupe.');
    }
    if (error) {
      const description = url.searchParams.get('error_description');
      const entry = this.finish(state, { ok: false, error: `The authorization server answered ${error}${description ? `: ${description}` : ''}.` });
      return page(res, 200, 'Sign-in refused', `${entry?.where ?? 'The authorization server'} answered ${error}${description ? ` (${description})` : ''}. Loupe shows this on the server's connection; you can close this tab.`);
    }
    if (!code) return page(res, 400, 'No authorization code', 'The redirect carries neither a code nor an error. Start the sign-in again from Loupe.');
    const entry = this.finish(state, { ok: true, code });
    page(res, 200, 'Signed in', `Signed in at ${entry?.where ?? 'the authorization server'}. You can close this tab and return to Loupe.`);
  }
}

function page(res: ServerResponse, status: number, title: string, text: string): void {
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
