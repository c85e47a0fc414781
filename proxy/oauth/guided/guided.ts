/**
 * The guided OAuth flow (issue 11, "Guided mode"): the sign-in to one MCP server run one step at
 * a time, each step a card on the page with its HTTP exchanges, what the spec expects there, and
 * a verdict. Two paths, as the OAuth settings' grant says (lib/wire/oauth.ts GUIDED_PATHS): the
 * authorization code flow, or cross-app access through an enterprise IdP (issue 29). The steps
 * themselves are in steps.ts and cross-app.ts; this is the machine: which step is
 * next, running it, turning its outcome into the wire's GuidedStep (lib/wire/oauth.ts) with the
 * named explanation of a failure, an `auth` trace row per step, and stopping. A failure stops the
 * flow. What the flow learns that is secret (client secret, code, verifier, tokens) stays in this
 * object and is dropped when the flow ends.
 */
import { explainFailure } from '../../../lib/oauth/explain.ts';
import { GUIDED_PATHS, type GuidedFlow, type GuidedPath, type GuidedStep, type GuidedStepId } from '../../../lib/wire/oauth.ts';
import { CROSS_APP_SPECS, crossAppSecrets } from './cross-app.ts';
import { ExchangeRecorder } from './fetch.ts';
import { enoughOfStream } from './mcp.ts';
import * as steps from './steps.ts';
import type { FlowMemory, GuidedContext, StepOutcome, StepSpec } from './types.ts';

export type { CallbackResult, GuidedContext } from './types.ts';

const SPEC = 'https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization';

/** The authorization code path's steps; cross-app access replaces or adds some (cross-app.ts). */
const STEP_SPECS: Record<(typeof GUIDED_PATHS)['authorization-code'][number], StepSpec> = {
  'unauthenticated-request': {
    title: 'Request without a token',
    expects: 'An MCP initialize request without credentials is answered 401 Unauthorized, with a WWW-Authenticate header that starts discovery.',
    reference: `${SPEC}#authorization-server-discovery`,
    run: steps.stepUnauthenticated,
  },
  challenge: {
    title: 'The 401 and its WWW-Authenticate header',
    expects: 'A Bearer challenge (RFC 6750 §3) whose resource_metadata parameter gives the URL of the protected resource metadata (RFC 9728 §5.1), and possibly the scope to ask for.',
    reference: 'https://datatracker.ietf.org/doc/html/rfc9728#section-5.1',
    run: steps.stepChallenge,
  },
  'resource-metadata': {
    title: 'Protected resource metadata',
    expects: "An RFC 9728 JSON document at the resource_metadata URL, else at /.well-known/oauth-protected-resource with the server's path, else at the root. Its resource is the server's URL, and authorization_servers says where to sign in.",
    reference: 'https://datatracker.ietf.org/doc/html/rfc9728#section-3',
    run: steps.stepResourceMetadata,
  },
  'authorization-server-metadata': {
    title: 'Authorization server metadata',
    expects: 'RFC 8414 or OpenID Connect metadata, with the path inserted after /.well-known/ first. Its issuer is the authorization server URL it was fetched for, the authorization and token endpoints are present, and code_challenge_methods_supported includes S256.',
    reference: `${SPEC}#authorization-server-metadata-discovery`,
    run: steps.stepAuthorizationServer,
  },
  registration: {
    title: 'Client registration',
    expects: 'A client ID for Loupe: a pre-registered one from the OAuth settings, a client ID metadata document URL where the server supports it, or dynamic client registration (RFC 7591) at registration_endpoint.',
    reference: `${SPEC}#client-registration-approaches`,
    run: steps.stepRegistration,
  },
  'authorization-request': {
    title: 'Authorization request',
    expects: 'An authorization code request with PKCE S256 (RFC 7636), the resource parameter (RFC 8707), the scope and a fresh state; the authorization server answers with its sign-in or consent page. The next Continue opens it.',
    reference: `${SPEC}#authorization-code-protection`,
    run: steps.stepAuthorizationRequest,
  },
  callback: {
    title: 'Callback',
    expects: "After you sign in and approve, the authorization server sends the browser to Loupe's callback with a code and the same state (RFC 6749 §4.1.2).",
    reference: 'https://datatracker.ietf.org/doc/html/rfc6749#section-4.1.2',
    run: steps.stepCallback,
  },
  'token-request': {
    title: 'Token request',
    expects: 'The code and the PKCE verifier, with the resource parameter, exchanged at the token endpoint for a Bearer access token (RFC 6749 §5.1): token_type Bearer, its lifetime in expires_in, and the scope granted.',
    reference: 'https://datatracker.ietf.org/doc/html/rfc6749#section-5.1',
    run: steps.stepToken,
  },
  'authenticated-request': {
    title: 'Request with the token',
    expects: 'The same initialize request with Authorization: Bearer is answered 200 with an initialize result: the server accepts a token issued for it (its audience, RFC 8707).',
    reference: `${SPEC}#access-token-usage`,
    run: steps.stepAuthenticated,
  },
};

/** What runs a step of a path. */
function specOf(path: GuidedPath, id: GuidedStepId): StepSpec {
  const crossApp = path === 'cross-app-access' && id in CROSS_APP_SPECS ? CROSS_APP_SPECS[id as keyof typeof CROSS_APP_SPECS] : undefined;
  return crossApp ?? STEP_SPECS[id as keyof typeof STEP_SPECS];
}

/** The path the OAuth settings choose: cross-app access for its grant, else the authorization code flow. */
export function pathOf(settings: GuidedContext['settings']): GuidedPath {
  return settings.grant === 'cross_app_access' ? 'cross-app-access' : 'authorization-code';
}

/** A flow with every step pending. */
export function newGuidedFlow(session: string, path: GuidedPath = 'authorization-code'): GuidedFlow {
  const list: GuidedStep[] = GUIDED_PATHS[path].map((id) => {
    const spec = specOf(path, id);
    return { id, title: spec.title, expects: spec.expects, reference: spec.reference, status: 'pending', exchanges: [] };
  });
  return { session, path, steps: list, next: 0, done: false };
}

export type ContinueResult = { ok: true; flow: GuidedFlow } | { ok: false; reason: string };

export class GuidedOAuth {
  private value: GuidedFlow;
  private mem: FlowMemory = {};
  private readonly controller = new AbortController();
  private busy = false;
  /** The running step's exchanges, kept when the flow is stopped mid-step. */
  private current?: ExchangeRecorder;

  constructor(
    session: string,
    private readonly ctx: GuidedContext,
    /** Told after every change (a step started, a step ended, the flow stopped). */
    private readonly onChange: (flow: GuidedFlow) => void,
  ) {
    this.value = newGuidedFlow(session, pathOf(ctx.settings));
  }

  get flow(): GuidedFlow {
    return this.value;
  }

  get running(): boolean {
    return this.busy;
  }

  /** Runs the next step; refused while one runs or once the flow is done. */
  async continue(): Promise<ContinueResult> {
    if (this.value.done) return { ok: false, reason: 'The guided flow has ended: start it again to run it anew.' };
    if (this.busy) return { ok: false, reason: 'A step of the guided flow is still running; wait for it, or stop the flow.' };
    const index = this.value.next;
    const id = this.value.steps[index].id;
    this.busy = true;
    this.setStep(index, { status: 'running', verdict: undefined, problem: undefined, exchanges: [] });
    const http = new ExchangeRecorder({ base: this.ctx.fetch, secretHeaders: this.ctx.secretHeaders, secrets: () => this.secrets(), signal: this.controller.signal, timeoutMs: this.ctx.timeoutMs, enough: enoughOfStream });
    this.current = http;
    let outcome: StepOutcome;
    try {
      outcome = await specOf(this.value.path ?? 'authorization-code', id).run({ ctx: this.ctx, mem: this.mem, http });
    } catch (error) {
      outcome = { status: 'failed', verdict: `Loupe could not run this step: ${error instanceof Error ? error.message : String(error)}.` };
    } finally {
      this.busy = false;
    }
    // Stopped meanwhile: stop() has already said so.
    if (this.controller.signal.aborted) return { ok: true, flow: this.value };
    this.finishStep(index, outcome, http);
    return { ok: true, flow: this.value };
  }

  /** Stops the flow: a running step is abandoned, a wait for the callback given up, the secrets dropped. */
  stop(why = 'Stopped before it finished.'): void {
    if (this.value.done) return;
    const state = this.mem.state;
    const index = this.value.next;
    this.controller.abort();
    if (state) this.ctx.cancelCallback(state, 'The guided sign-in was stopped.');
    if (this.busy) this.setStep(index, { status: 'failed', verdict: why, exchanges: [...(this.current?.exchanges ?? [])] });
    this.value = { ...this.value, done: true };
    this.mem = {};
    this.ctx.record({ step: this.value.steps[index]?.id ?? 'guided', status: 'info', message: `Guided sign-in stopped: ${why}` });
    this.onChange(this.value);
  }

  private finishStep(index: number, outcome: StepOutcome, http: ExchangeRecorder): void {
    const problem = outcome.status === 'failed' && outcome.failure ? explainFailure(outcome.failure) : undefined;
    this.setStep(index, {
      status: outcome.status,
      verdict: outcome.verdict,
      problem,
      exchanges: [...http.exchanges],
      authorizationUrl: outcome.authorizationUrl,
    });
    const next = index + 1;
    const done = outcome.status === 'failed' || next >= this.value.steps.length;
    this.value = { ...this.value, next, done };
    // Nothing more will use them: the flow's tokens are a debugging aid, not the session's sign-in.
    if (done) this.mem = {};
    const status = outcome.status === 'failed' ? 'failed' : outcome.status === 'passed' ? 'passed' : 'info';
    this.ctx.record({ step: this.value.steps[index].id, status, message: problem ? `${problem.name}: ${outcome.verdict} ${problem.hint}` : outcome.verdict });
    this.onChange(this.value);
  }

  private setStep(index: number, change: Partial<GuidedStep>): void {
    const list = this.value.steps.map((step, i) => (i === index ? { ...step, ...change } : step));
    this.value = { ...this.value, steps: list };
    if (change.status === 'running') this.onChange(this.value);
  }

  /** Values masked wherever they would appear in an exchange, whatever the field (a server may echo them). */
  private secrets(): string[] {
    const { tokens, code, codeVerifier, client } = this.mem;
    const clientSecret = client && 'client_secret' in client ? client.client_secret : undefined;
    const all = [tokens?.access_token, tokens?.refresh_token, tokens?.id_token, code, codeVerifier, clientSecret, this.ctx.settings.clientSecret, ...crossAppSecrets(this.ctx, this.mem)];
    return all.filter((v): v is string => typeof v === 'string' && v !== '');
  }
}
