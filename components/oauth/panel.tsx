/**
 * The OAuth tab of a remote server (issue 11): how Loupe is signed in to it (never a token: the
 * proxy holds those; the page is told the phase, scope, expiry and client id), the settings for
 * signing in, `Forget credentials`, and the guided flow's step cards (oauth-steps.tsx).
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import type { GuidedFlow, OAuthSettings, OAuthState } from '../../lib/wire/oauth.ts';
import { CrossAppFields, GrantChoice, idpDraftOf, idpPayload, type Grant, type IdpDraft } from './cross-app-settings.tsx';
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
        {auth?.settings?.grant === 'cross_app_access' && <Fact term="Identity provider"><Text>{auth.settings.idp?.tokenEndpoint ?? auth.settings.idp?.url ?? 'not set'}</Text>{auth.settings.idp?.hasIdToken ? ' (ID token set, kept by Loupe)' : ' (no ID token yet)'}</Fact>}
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

/** What the settings form holds while it is typed in: the secrets only until saved. */
function useSettingsDraft(saved: NonNullable<OAuthState['settings']>) {
  const [clientId, setClientId] = useState(saved.clientId ?? '');
  const [secret, setSecret] = useState('');
  const [metadataUrl, setMetadataUrl] = useState(saved.clientMetadataUrl ?? '');
  const [scope, setScope] = useState(saved.scope ?? '');
  const [grant, setGrant] = useState<Grant>(saved.grant ?? 'authorization_code');
  const [idp, setIdp] = useState<IdpDraft>(idpDraftOf(saved.idp));
  // A field emptied here is sent as "" (absent would mean "keep"); one that was empty stays absent.
  const field = (value: string, was: string | undefined) => (value.trim() !== '' ? value.trim() : was ? '' : undefined);
  const settings = (clear: { clientSecret?: boolean; idToken?: boolean } = {}): OAuthSettings => {
    const { idp: _shown, ...kept } = saved;
    const crossApp = grant === 'cross_app_access' || saved.idp !== undefined;
    return {
      ...kept,
      clientId: field(clientId, saved.clientId),
      clientMetadataUrl: field(metadataUrl, saved.clientMetadataUrl),
      scope: field(scope, saved.scope),
      // The grant only when chosen: sending the default anew would count as a change and drop the sign-in.
      ...(grant !== (saved.grant ?? 'authorization_code') ? { grant } : {}),
      ...(secret !== '' ? { clientSecret: secret } : clear.clientSecret ? { clientSecret: '' } : {}),
      ...(crossApp ? { idp: idpPayload(idp, saved.idp, { idToken: clear.idToken }) } : {}),
    };
  };
  const sent = () => {
    setSecret('');
    setIdp({ ...idp, clientSecret: '', idToken: '' });
  };
  return { clientId, setClientId, secret, setSecret, metadataUrl, setMetadataUrl, scope, setScope, grant, setGrant, idp, setIdp, settings, sent };
}

/** Keyed by the proxy's settings, so that a change elsewhere resets what is typed here. */
function SettingsForm({ auth, online, onSave }: { auth?: OAuthState; online: boolean; onSave(settings: OAuthSettings): void }): ReactNode {
  const saved = auth?.settings ?? {};
  const d = useSettingsDraft(saved);
  const save = (clear?: { clientSecret?: boolean; idToken?: boolean }) => {
    onSave(d.settings(clear));
    d.sent();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save();
  };
  const crossApp = d.grant === 'cross_app_access';
  return (
    <form aria-label="OAuth settings" className="space-y-2" onSubmit={submit}>
      <h3 className="text-sm font-semibold">Settings</h3>
      <p className="text-xs text-zinc-600 dark:text-zinc-300">
        {crossApp ? 'Cross-app access: the Client ID and Client secret are Loupe’s client at the server’s authorization server.' : 'All optional: without a client ID Loupe registers itself (client ID metadata document or dynamic registration).'} The next sign-in uses them.
      </p>
      <GrantChoice grant={d.grant} onChange={d.setGrant} />
      <div className="grid gap-2 sm:grid-cols-2">
        <label className="block">
          <span className={labelClass}>Client ID</span>
          <input className={inputClass} value={d.clientId} onChange={(e) => d.setClientId(e.target.value)} autoComplete="off" spellCheck={false} />
        </label>
        <label className="block">
          <span className={labelClass}>Client secret</span>
          <input className={inputClass} type="password" value={d.secret} onChange={(e) => d.setSecret(e.target.value)} autoComplete="new-password" placeholder={auth?.hasClientSecret ? 'set (type to replace)' : 'none'} />
        </label>
        <label className="block">
          <span className={labelClass}>Client metadata URL</span>
          <input className={inputClass} value={d.metadataUrl} onChange={(e) => d.setMetadataUrl(e.target.value)} placeholder="https://…" spellCheck={false} />
        </label>
        <label className="block">
          <span className={labelClass}>Scope</span>
          <input className={inputClass} value={d.scope} onChange={(e) => d.setScope(e.target.value)} placeholder="from the server" spellCheck={false} />
        </label>
      </div>
      {crossApp && <CrossAppFields draft={d.idp} view={saved.idp} onChange={d.setIdp} />}
      {auth?.hasClientSecret && <p className="text-xs">A client secret is set (Loupe keeps it; it is never shown).</p>}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass} disabled={!online}>Save settings</button>
        {auth?.hasClientSecret && <button type="button" className={buttonClass} disabled={!online} onClick={() => save({ clientSecret: true })}>Clear client secret</button>}
        {crossApp && saved.idp?.hasIdToken && <button type="button" className={buttonClass} disabled={!online} onClick={() => save({ idToken: true })}>Clear ID token</button>}
      </div>
    </form>
  );
}

/** The path the guided flow follows (the one the settings choose, until a flow says which it runs). */
function pathWords(flow: GuidedFlow | undefined, grant: OAuthSettings['grant']): string {
  const crossApp = flow ? flow.path === 'cross-app-access' : grant === 'cross_app_access';
  return crossApp
    ? 'Path: cross-app access (enterprise IdP): discovery, the token exchange at the IdP, the jwt-bearer grant, a request with the token.'
    : 'Path: sign-in in the browser (authorization code with PKCE).';
}

function Guided({ flow, online, grant, onStart, onContinue, onStop }: Pick<OAuthPanelProps, 'flow' | 'online' | 'onStart' | 'onContinue' | 'onStop'> & { grant: OAuthSettings['grant'] }): ReactNode {
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
      <p className="text-xs text-zinc-600 dark:text-zinc-300">{pathWords(flow, grant)}</p>
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
        <Guided flow={props.flow} online={props.online} grant={props.auth?.settings?.grant} onStart={props.onStart} onContinue={props.onContinue} onStop={props.onStop} />
      </div>
    </Panel>
  );
}
