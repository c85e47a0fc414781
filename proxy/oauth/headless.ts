/**
 * Signing in without a person (issue 11 §4, the CLI): an authorization server that approves at once
 * (test servers, the conformance suite's) answers the authorization request with a redirect to the
 * client's redirect URI carrying the code. Loupe follows the redirects itself, as a browser would,
 * and reads the code from the last `Location` — the redirect URI is never fetched, so nothing needs
 * to listen there and the code goes nowhere else. A login or consent page instead means a person is
 * needed, and Loupe says so.
 *
 * `authorizeOnDemand` closes the loop for a transport: when a request fails with the SDK's
 * UnauthorizedError (auth() started a sign-in and wants the code), it gets the code (headless: by
 * following the redirect; the UI may pass its callback wait), calls `transport.finishAuth(code)` and
 * sends the request again — at connect time and for a step-up in the middle of a session alike.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-flow-steps
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { LoupeAuthProvider } from './provider/provider.ts';

/** The redirect URI of a headless session: nothing listens there, the code is read from the redirect to it. */
export { HEADLESS_REDIRECT_URL } from './callback.ts';

/** A browser's limit is about 20; an authorization server that approves at once needs one or two. */
const MAX_REDIRECTS = 10;
const TIMEOUT_MS = 30_000;
/** Sign-ins per request: the first one, a step-up, and one more (the conformance suite's bound is 3). */
const MAX_SIGN_INS_PER_REQUEST = 3;

export type RedirectOutcome = { code: string } | { error: string };

export const PERSON_NEEDED = 'this authorization server wants a person to sign in: run Loupe without --cli, or use --oauth-client-credentials';

/** The redirect URI without query and fragment, for comparing where a redirect points. */
const target = (url: URL): string => `${url.protocol}//${url.host}${url.pathname}`;

/** Cookies by host, as a browser would carry them between the authorization server's own redirects. */
class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();

  take(url: URL, response: Response): void {
    const lines = typeof response.headers.getSetCookie === 'function' ? response.headers.getSetCookie() : [];
    for (const line of lines) {
      const pair = line.split(';', 1)[0];
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const jar = this.byHost.get(url.host) ?? new Map<string, string>();
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
      this.byHost.set(url.host, jar);
    }
  }

  header(url: URL): string | undefined {
    const jar = this.byHost.get(url.host);
    return jar && jar.size > 0 ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
  }
}

/** The start of an error body, in the authorization server's words when it sent OAuth JSON. */
async function errorWords(response: Response): Promise<string> {
  const text = (await response.text().catch(() => '')).slice(0, 2000);
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    if (typeof body.error === 'string') return ` (${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''})`;
  } catch {
    // Not JSON: the text itself, shortened.
  }
  const plain = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200);
  return plain ? `: ${plain}` : '';
}

/** What the redirect to Loupe's redirect URI says: the code, or the refusal. */
function readCallback(url: URL, expectedState: string | null): RedirectOutcome {
  const error = url.searchParams.get('error');
  if (error) {
    const description = url.searchParams.get('error_description');
    return { error: `The authorization server refused the sign-in: ${error}${description ? ` (${description})` : ''}.` };
  }
  // RFC 6749 §10.12: a redirect whose state is not the one sent is not an answer to this request.
  if (expectedState !== null && url.searchParams.get('state') !== expectedState) {
    return { error: 'The authorization server redirected back with a different state than Loupe sent, so Loupe does not use its code (RFC 6749 §10.12): check the server\'s handling of `state`.' };
  }
  const code = url.searchParams.get('code');
  if (!code) return { error: 'The authorization server redirected back with neither a code nor an error.' };
  return { code };
}

/**
 * GETs the authorization URL and follows its redirects (Location resolved against the URL that
 * answered, as a browser does) until one points at `redirectUrl`; returns its code, checking its
 * `state` against `expectedState` (default: the one in the authorization URL). Never fetches the
 * redirect URL itself.
 */
export async function followRedirect(authorizationUrl: URL, redirectUrl: string, fetchFn: FetchLike = fetch, expectedState: string | null = authorizationUrl.searchParams.get('state')): Promise<RedirectOutcome> {
  const wanted = target(new URL(redirectUrl));
  const jar = new CookieJar();
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  let url = authorizationUrl;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (target(url) === wanted) return readCallback(url, expectedState);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return { error: `The authorization server redirected to ${url.protocol} (not Loupe's redirect URI ${redirectUrl}), which Loupe cannot follow.` };
    const cookie = jar.header(url);
    let response: Response;
    try {
      response = await fetchFn(url, { method: 'GET', redirect: 'manual', signal, headers: { accept: 'text/html,application/json;q=0.9,*/*;q=0.8', ...(cookie ? { cookie } : {}) } });
    } catch (error) {
      const why = signal.aborted ? `no answer within ${TIMEOUT_MS / 1000} s` : error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      return { error: `Loupe could not reach the authorization server at ${url.origin} (${why}).` };
    }
    jar.take(url, response);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel().catch(() => undefined);
      try {
        url = new URL(location, url);
      } catch {
        return { error: `The authorization server redirected to ${JSON.stringify(location)}, which is not a URL.` };
      }
      continue;
    }
    const type = response.headers.get('content-type') ?? '';
    if (response.ok && type.includes('html')) {
      await response.body?.cancel().catch(() => undefined);
      return { error: `The authorization server at ${url.origin} answered with a page instead of redirecting back: ${PERSON_NEEDED}.` };
    }
    const words = await errorWords(response);
    return { error: `The authorization server answered the authorization request with HTTP ${response.status}${words} instead of redirecting back to Loupe.` };
  }
  return { error: `The authorization server redirected more than ${MAX_REDIRECTS} times without reaching Loupe's redirect URI (last: ${url.origin}${url.pathname}).` };
}

/** A transport whose sign-in the SDK can finish (Streamable HTTP and legacy SSE both can). */
export type FinishableTransport = Transport & { finishAuth(authorizationCode: string): Promise<void> };

/** Where the code of a started sign-in comes from: headless, the redirect; the UI, its callback route. */
export type CodeSource = (signIn: { url: URL; state: string }) => Promise<RedirectOutcome>;

/** The headless code source. */
export const followingRedirects =
  (provider: LoupeAuthProvider, fetchFn: FetchLike = fetch): CodeSource =>
  ({ url }) =>
    followRedirect(url, String(provider.redirectUrl), fetchFn);

/** A sign-in that could not finish; its message is one plain sentence. */
export class SignInError extends Error {
  override readonly name = 'SignInError';
}

/**
 * After an UnauthorizedError: gets the code of the pending sign-in and exchanges it
 * (`transport.finishAuth`). The caller then sends again, or reconnects on a new transport.
 */
export async function finishSignIn(transport: FinishableTransport, provider: LoupeAuthProvider, obtainCode: CodeSource): Promise<{ ok: true } | { ok: false; error: string }> {
  const url = provider.pendingAuthorization();
  const state = provider.expectedState();
  if (!url || state === undefined) return { ok: false, error: 'The server wants a sign-in, but none was started (the authorization server could not be found or used).' };
  const outcome = await obtainCode({ url, state });
  if ('error' in outcome) {
    provider.cancelAuthorization(state);
    provider.reportFailure(outcome.error);
    return { ok: false, error: outcome.error };
  }
  if (!provider.takeState(state)) {
    const error = 'The sign-in expired or was replaced before its code arrived: sign in again.';
    provider.reportFailure(error);
    return { ok: false, error };
  }
  try {
    await transport.finishAuth(outcome.code);
    return { ok: true };
  } catch (error) {
    const message = `The authorization server did not exchange the code for a token: ${error instanceof Error ? error.message : String(error)}`;
    provider.reportFailure(message);
    return { ok: false, error: message };
  }
}

/** The headless helper the CLI calls after an UnauthorizedError. */
export function headlessAuthorize(transport: FinishableTransport, provider: LoupeAuthProvider, fetchFn: FetchLike = fetch): Promise<{ ok: true } | { ok: false; error: string }> {
  return finishSignIn(transport, provider, followingRedirects(provider, fetchFn));
}

/**
 * Makes `transport.send` finish sign-ins itself: a request that fails with UnauthorizedError waits
 * for the code, the exchange, and is sent again (at most MAX_SIGN_INS_PER_REQUEST times). Requests
 * failing together share one sign-in. Returns the same transport.
 */
export function authorizeOnDemand<T extends FinishableTransport>(transport: T, provider: LoupeAuthProvider, obtainCode: CodeSource): T {
  const send = transport.send.bind(transport);
  let signingIn: Promise<void> | undefined;
  // Sign-ins finished so far. Read with no await between it and `signingIn`: a request whose 401
  // arrives just as another's sign-in ends sees one or the other, never neither (reading the
  // token alone, an await, could miss both and start a needless second sign-in).
  let signedIn = 0;
  const signIn = (): Promise<void> =>
    (signingIn ??= finishSignIn(transport, provider, obtainCode)
      .then((result) => {
        if (!result.ok) throw new SignInError(result.error);
        signedIn++;
      })
      .finally(() => (signingIn = undefined)));

  transport.send = async (message, options) => {
    for (let attempt = 1; ; attempt++) {
      const before = (await provider.tokens())?.access_token;
      const signInsBefore = signedIn;
      try {
        return await send(message, options);
      } catch (error) {
        if (!(error instanceof UnauthorizedError) || attempt > MAX_SIGN_INS_PER_REQUEST) {
          // Whatever auth() threw (no PKCE, resource mismatch, a refused registration) is the sign-in's failure too.
          if (!(error instanceof UnauthorizedError) && provider.authState().phase === 'working') provider.reportFailure(error instanceof Error ? error.message : String(error));
          throw error;
        }
        const now = (await provider.tokens())?.access_token;
        if (signingIn) await signingIn;
        else if (signedIn !== signInsBefore || (now !== undefined && now !== before)) {
          // Another request signed in meanwhile: the sign-in this one started is needless.
          const stale = provider.expectedState();
          if (stale !== undefined) provider.cancelAuthorization(stale);
        } else await signIn();
      }
    }
  };
  return transport;
}
