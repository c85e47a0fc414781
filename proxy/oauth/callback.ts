/**
 * Loupe's OAuth redirect target (issue 11): `GET /oauth/callback?code=…&state=…` (or `error=…`)
 * on Loupe's own port. It needs no Loupe token: the authorization server's redirect cannot carry
 * one. What stands in for it is the `state`: unguessable, known only to the proxy and the
 * authorization server, and good once (RFC 6749 §10.12); a callback with any other state changes
 * nothing. The code goes to whoever waits for that state (a connect, or the guided flow); it is
 * never shown, logged or traced.
 */
/**
 * The redirect URI of a Loupe with no page (the headless modes): registered like any other, but
 * nothing needs to listen there, since the headless sign-in (headless.ts) reads the code from the
 * authorization server's redirect to it.
 */
export const HEADLESS_REDIRECT_URL = 'http://127.0.0.1/oauth/callback';

export type CallbackOutcome = { ok: true; code: string } | { ok: false; error: string };

/**
 * What the person who followed the redirect is told: the web face (proxy/faces/web/oauth-page.ts)
 * draws it as a page, so that this side knows no HTML.
 */
export interface CallbackNotice {
  status: 200 | 400;
  title: string;
  text: string;
}

interface Waiting {
  resolve(outcome: CallbackOutcome): void;
  timer: ReturnType<typeof setTimeout>;
  /** Where the user signed in, for the words of the page they land on. */
  where: string;
}

/** How long a sign-in may take before the connect gives up (a person reads a consent page). */
export const CALLBACK_TIMEOUT_MS = 10 * 60_000;

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

  /** A redirect back (its query): the code (or error) to the waiting sign-in, and what to tell the person. */
  receive(query: URLSearchParams): CallbackNotice {
    const state = query.get('state') ?? '';
    const code = query.get('code');
    const error = query.get('error');
    if (!this.waiting.has(state)) {
      return { status: 400, title: 'This sign-in link is not expected', text: 'Loupe is not waiting for a sign-in with this state: it may have finished, timed out or been replaced. Start the sign-in again from Loupe.' };
    }
    if (error) {
      const description = query.get('error_description');
      const entry = this.finish(state, { ok: false, error: `The authorization server answered ${error}${description ? `: ${description}` : ''}.` });
      return { status: 200, title: 'Sign-in refused', text: `${entry?.where ?? 'The authorization server'} answered ${error}${description ? ` (${description})` : ''}. Loupe shows this on the server's connection; you can close this tab.` };
    }
    if (!code) return { status: 400, title: 'No authorization code', text: 'The redirect carries neither a code nor an error. Start the sign-in again from Loupe.' };
    const entry = this.finish(state, { ok: true, code });
    return { status: 200, title: 'Signed in', text: `Signed in at ${entry?.where ?? 'the authorization server'}. You can close this tab and return to Loupe.` };
  }
}
