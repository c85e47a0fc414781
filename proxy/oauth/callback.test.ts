/**
 * Loupe's `/oauth/callback` on its own port (issue 11): the code reaches the sign-in that waits for
 * its state, once; any other state is refused and changes nothing; the page the person lands on
 * says what happened in words, and no token is needed (nor would one help).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { launch, type RunningLoupe } from '../launch.ts';

let loupe: RunningLoupe | undefined;
afterEach(async () => {
  await loupe?.close();
  loupe = undefined;
});

async function get(path: string): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(`${loupe!.origin}${path}`, { redirect: 'manual' });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

describe('/oauth/callback', () => {
  it('hands the code to the sign-in waiting for that state, once', async () => {
    loupe = await launch({ port: 0, uiRoot: '/nonexistent' });
    const callbacks = loupe.hub.engine.callbacks;
    expect(loupe.hub.engine.redirectUrl).toBe(`${loupe.origin}/oauth/callback`);
    const waiting = callbacks.expect('state-abc-123', 'auth.example');
    const landed = await get('/oauth/callback?code=the-code&state=state-abc-123');
    expect(landed.status).toBe(200);
    expect(landed.text).toContain('Signed in at auth.example');
    expect(landed.text).not.toContain('the-code');
    expect(landed.headers.get('referrer-policy')).toBe('no-referrer');
    await expect(waiting).resolves.toEqual({ ok: true, code: 'the-code' });
    // Used once: the same link again is refused.
    const again = await get('/oauth/callback?code=the-code&state=state-abc-123');
    expect(again.status).toBe(400);
    expect(again.text).toContain('not waiting for a sign-in');
  });

  it('refuses an unknown state and leaves the waiting sign-in alone', async () => {
    loupe = await launch({ port: 0, uiRoot: '/nonexistent' });
    const callbacks = loupe.hub.engine.callbacks;
    const waiting = callbacks.expect('the-real-state', 'auth.example');
    const forged = await get('/oauth/callback?code=evil&state=guessed');
    expect(forged.status).toBe(400);
    expect(callbacks.pending).toBe(1);
    await get('/oauth/callback?error=access_denied&error_description=The%20user%20said%20no&state=the-real-state');
    await expect(waiting).resolves.toEqual({ ok: false, error: 'The authorization server answered access_denied: The user said no.' });
  });

  it('escapes what the redirect carries in the page it shows', async () => {
    loupe = await launch({ port: 0, uiRoot: '/nonexistent' });
    const waiting = loupe.hub.engine.callbacks.expect('s1', 'auth.example');
    const landed = await get(`/oauth/callback?error=${encodeURIComponent('<script>alert(1)</script>')}&state=s1`);
    expect(landed.text).not.toContain('<script>');
    expect(landed.text).toContain('&#60;script&#62;');
    expect((await waiting).ok).toBe(false);
  });

  it('still refuses a foreign Host', async () => {
    loupe = await launch({ port: 0, uiRoot: '/nonexistent' });
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve) => {
      request({ host: '127.0.0.1', port: loupe!.port, path: '/oauth/callback?code=x&state=y', headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).end();
    });
    expect(status).toBe(403);
  });
});
