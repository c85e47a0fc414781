/**
 * The OAuth tab of a remote server (issue 11): how Loupe is signed in to it (never a token: the
 * proxy holds those; the page is told the phase, scope, expiry and client id), the settings for
 * signing in, `Forget credentials`, and the guided flow's step cards (oauth-steps.tsx).
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import type { GuidedFlow, OAuthSettings, OAuthState } from '../../lib/wire/oauth.ts';
import { GuidedSteps, safeWebUrl } from './steps.tsx';
import { Text } from '../ui/text.tsx';
import { Badge, buttonClass, inputClass, labelClass, Note, Panel, primaryButtonClass, type Tone } from '../ui/ui.tsx';
import { useNow } from '../ui/use-now.ts';
import { Fact } from '../connection/session-error.tsx';

export interface OAuthPanelProps {
  serverUrl: string;
  auth?: OAuthState;
  flow?: GuidedFlow;
  /** The socket to Loupe is open (else nothing can be sent). */
  online: boolean;
  /** Why the last action was not sent. */
  notSent?: string;
  onStart(): void;
  onContinue(): void;
  onStop(): void;
  onForget(): void;
  onSaveSettings(settings: OAuthSettings): void;
}

const PHASE: Record<OAuthState['phase'], { tone: Tone; label: string }> = {
  none: { tone: 'neutral', label: 'Not signed in' },
  working: { tone: 'info', label: 'Signing in…' },
  'waiting-for-user': { tone: 'warn', label: 'Waiting for you to sign in' },
  'signed-in': { tone: 'good', label: 'Signed in' },
  failed: { tone: 'bad', label: 'Sign-in failed' },
};


function expiry(expiresAt: number, now: number): string {
  const left = Math.round((expiresAt - now) / 1000);
  const at = new Date(expiresAt).toLocaleTimeString();
  if (left <= 0) return `expired at ${at}`;
  return left < 120 ? `in ${left} s (${at})` : `in ${Math.round(left / 60)} min (${at})`;
}

function SignIn({ auth, online, onForget }: { auth?: OAuthState; online: boolean; onForget(): void }): ReactNode {
  const now = useNow(1_000, auth?.expiresAt !== undefined);
  const phase = PHASE[auth?.phase ?? 'none'];
  const link = safeWebUrl(auth?.authorizationUrl);
  return (
    <section aria-label="Sign-in" className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold">Sign-in</h3>
        <span role="status" aria-label="Sign-in state"><Badge tone={phase.tone}>{phase.label}</Badge></span>
        <button type="button" className={`${buttonClass} ml-auto`} disabled={!online} onClick={onForget}>Forget credentials</button>
      </div>
      <dl className="space-y-0.5 text-xs">
        {auth?.authorizationServer !== undefined && <Fact term="Authorization server"><Text>{auth.authorizationServer}</Text></Fact>}
        {auth?.clientId !== undefined && <Fact term="Client ID"><Text>{auth.clientId}</Text></Fact>}
        {auth?.scope !== undefined && <Fact term="Scope"><Text>{auth.scope}</Text></Fact>}
        {auth?.expiresAt !== undefined && <Fact term="Access token expires">{expiry(auth.expiresAt, now)}</Fact>}
        {auth?.hasRefreshToken !== undefined && <Fact term="Refresh token">{auth.hasRefreshToken ? 'yes (kept by Loupe)' : 'none'}</Fact>}
      </dl>
      {auth?.phase === 'waiting-for-user' && link && (
        <p className="text-sm">
          <a className="underline" href={link} target="_blank" rel="noopener noreferrer">Open the sign-in page</a>
        </p>
      )}
      {auth?.error !== undefined && (
        <div role="alert" className="text-sm text-red-800 dark:text-red-200">
          <p><Text>{auth.error}</Text></p>
          {auth.hint !== undefined && <p><Text>{auth.hint}</Text></p>}
        </div>
      )}
      <Note>Tokens and client secrets stay in Loupe’s process; this page is only told that they exist.</Note>
    </section>
  );
}

/** Keyed by the proxy's settings, so that a change elsewhere resets what is typed here. */
function SettingsForm({ auth, online, onSave }: { auth?: OAuthState; online: boolean; onSave(settings: OAuthSettings): void }): ReactNode {
  const saved = auth?.settings ?? {};
  const [clientId, setClientId] = useState(saved.clientId ?? '');
  const [secret, setSecret] = useState('');
  const [metadataUrl, setMetadataUrl] = useState(saved.clientMetadataUrl ?? '');
  const [scope, setScope] = useState(saved.scope ?? '');
  // A field emptied here is sent as "" (absent would mean "keep"); one that was empty stays absent.
  const field = (value: string, was: string | undefined) => (value.trim() !== '' ? value.trim() : was ? '' : undefined);
  const save = (extra: Partial<OAuthSettings> = {}) => {
    onSave({
      ...saved,
      clientId: field(clientId, saved.clientId),
      clientMetadataUrl: field(metadataUrl, saved.clientMetadataUrl),
      scope: field(scope, saved.scope),
      ...(secret !== '' ? { clientSecret: secret } : {}),
      ...extra,
    });
    setSecret('');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save();
  };
  return (
    <form aria-label="OAuth settings" className="space-y-2" onSubmit={submit}>
      <h3 className="text-sm font-semibold">Settings</h3>
      <p className="text-xs text-zinc-600 dark:text-zinc-300">All optional: without a client ID Loupe registers itself (client ID metadata document or dynamic registration). The next sign-in uses them.</p>
      <div className="grid gap-2 sm:grid-cols-2">
        <label className="block">
          <span className={labelClass}>Client ID</span>
          <input className={inputClass} value={clientId} onChange={(e) => setClientId(e.target.value)} autoComplete="off" spellCheck={false} />
        </label>
        <label className="block">
          <span className={labelClass}>Client secret</span>
          <input className={inputClass} type="password" value={secret} onChange={(e) => setSecret(e.target.value)} autoComplete="new-password" placeholder={auth?.hasClientSecret ? 'set (type to replace)' : 'none'} />
        </label>
        <label className="block">
          <span className={labelClass}>Client metadata URL</span>
          <input className={inputClass} value={metadataUrl} onChange={(e) => setMetadataUrl(e.target.value)} placeholder="https://…" spellCheck={false} />
        </label>
        <label className="block">
          <span className={labelClass}>Scope</span>
          <input className={inputClass} value={scope} onChange={(e) => setScope(e.target.value)} placeholder="from the server" spellCheck={false} />
        </label>
      </div>
      {auth?.hasClientSecret && <p className="text-xs">A client secret is set (Loupe keeps it; it is never shown).</p>}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass} disabled={!online}>Save settings</button>
        {auth?.hasClientSecret && <button type="button" className={buttonClass} disabled={!online} onClick={() => save({ clientSecret: '' })}>Clear client secret</button>}
      </div>
    </form>
  );
}

function Guided({ flow, online, onStart, onContinue, onStop }: Pick<OAuthPanelProps, 'flow' | 'online' | 'onStart' | 'onContinue' | 'onStop'>): ReactNode {
  const running = flow?.steps.some((s) => s.status === 'running') ?? false;
  const outcome = !flow?.done
    ? undefined
    : flow.steps.some((s) => s.status === 'failed')
      ? 'Stopped at a failed step.'
      : flow.next < flow.steps.length
        ? 'Stopped before the end.'
        : flow.steps.some((s) => s.status === 'skipped')
          ? 'Every step passed or was skipped.'
          : 'Every step passed.';
  return (
    <section aria-label="Guided flow" className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold">Guided flow</h3>
        <button type="button" className={`${primaryButtonClass} ml-auto`} disabled={!online || running} onClick={onStart}>Start guided flow</button>
        {flow && !flow.done && <button type="button" className={buttonClass} disabled={!online} onClick={onStop}>Stop guided flow</button>}
      </div>
      {!flow && <Note>Runs the sign-in one step at a time, each with its HTTP requests and responses, what the spec expects, and a verdict.</Note>}
      {outcome && <p role="status" aria-label="Guided flow result" className="text-sm font-medium"><Text>{outcome}</Text></p>}
      {flow && <GuidedSteps flow={flow} onContinue={onContinue} />}
    </section>
  );
}

/** Why a stdio server has no sign-in: what the OAuth tab shows for one instead of settings. */
export const OAUTH_STDIO_NOTE = 'OAuth applies to remote (HTTP) servers; this one runs over stdio.';

export function OAuthStdioNote(): ReactNode {
  return (
    <Panel label="OAuth" title="OAuth">
      <p className="text-sm text-zinc-700 dark:text-zinc-200">{OAUTH_STDIO_NOTE}</p>
    </Panel>
  );
}

export function OAuthPanel(props: OAuthPanelProps): ReactNode {
  const settingsKey = JSON.stringify(props.auth?.settings ?? {});
  return (
    <Panel label="OAuth" title="OAuth">
      <div className="space-y-4">
        <p className="break-all text-xs text-zinc-600 dark:text-zinc-300">Server: <Text className="font-mono">{props.serverUrl}</Text></p>
        {props.notSent && <Note tone="bad">{props.notSent}</Note>}
        <SignIn auth={props.auth} online={props.online} onForget={props.onForget} />
        <SettingsForm key={settingsKey} auth={props.auth} online={props.online} onSave={props.onSaveSettings} />
        <Guided flow={props.flow} online={props.online} onStart={props.onStart} onContinue={props.onContinue} onStop={props.onStop} />
      </div>
    </Panel>
  );
}
