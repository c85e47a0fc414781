/**
 * The guided OAuth flow's cards (issue 11): one per step, with what the spec expects there, the
 * status and the verdict, the named problem and its fix on a failure, the authorization URL, and
 * every HTTP exchange of the step (headers and bodies as the proxy masked them) in a collapsible
 * view. Everything in a card came from a server or from the proxy's reading of one: text only.
 */
import type { ReactNode } from 'react';
import type { GuidedExchange, GuidedFlow, GuidedStep } from '../../lib/wire/oauth.ts';
import { Pre, Text } from '../ui/text.tsx';
import { Badge, primaryButtonClass, type Tone } from '../ui/ui.tsx';

const STATUS: Record<GuidedStep['status'], { tone: Tone; label: string }> = {
  pending: { tone: 'neutral', label: 'Pending' },
  running: { tone: 'info', label: 'Running' },
  passed: { tone: 'good', label: 'Passed' },
  failed: { tone: 'bad', label: 'Failed' },
  skipped: { tone: 'neutral', label: 'Skipped' },
};

/** Only web URLs become links: a server's metadata could name a `javascript:` URL. */
export function safeWebUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

function headerText(headers: Record<string, string> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function ExchangeView({ exchange }: { exchange: GuidedExchange }): ReactNode {
  const outcome = exchange.error ? exchange.error : exchange.status !== undefined ? String(exchange.status) : 'no answer yet';
  const request = [`${exchange.method} ${exchange.url}`, headerText(exchange.requestHeaders), ...(exchange.requestBody !== undefined ? ['', exchange.requestBody] : [])].join('\n');
  const response = exchange.status === undefined ? undefined : [`HTTP ${exchange.status}`, headerText(exchange.responseHeaders), ...(exchange.responseBody !== undefined ? ['', exchange.responseBody] : [])].join('\n');
  return (
    <details className="rounded border border-zinc-200 text-xs dark:border-zinc-700">
      <summary className="cursor-pointer break-all px-2 py-1 font-mono">
        <Text>{`${exchange.method} ${exchange.url} → ${outcome}`}</Text>
        {exchange.durationMs !== undefined && <span className="text-zinc-500 dark:text-zinc-400">{` (${exchange.durationMs} ms)`}</span>}
      </summary>
      <div className="space-y-2 border-t border-zinc-200 p-2 dark:border-zinc-700">
        <div role="group" aria-label="Request">
          <p className="mb-1 font-semibold">Request</p>
          <Pre className="max-h-72 overflow-auto rounded bg-zinc-50 p-2 dark:bg-zinc-800/60">{request}</Pre>
        </div>
        <div role="group" aria-label="Response">
          <p className="mb-1 font-semibold">Response</p>
          {response !== undefined ? <Pre className="max-h-72 overflow-auto rounded bg-zinc-50 p-2 dark:bg-zinc-800/60">{response}</Pre> : <p className="text-red-700 dark:text-red-300"><Text>{exchange.error ?? 'No response.'}</Text></p>}
        </div>
      </div>
    </details>
  );
}

interface StepCardProps {
  step: GuidedStep;
  number: number;
  /** This is the step the next Continue runs, and nothing runs now. */
  canContinue: boolean;
  /** Continue on this step opens the sign-in page first (the step after the authorization request). */
  opensSignIn: boolean;
  onContinue(): void;
}

function StepCard({ step, number, canContinue, opensSignIn, onContinue }: StepCardProps): ReactNode {
  const status = STATUS[step.status];
  const link = safeWebUrl(step.authorizationUrl);
  return (
    <li>
      <section aria-label={`Step ${number}: ${step.title}`} className={`space-y-1.5 rounded-md border p-2 ${step.status === 'failed' ? 'border-red-300 dark:border-red-800' : 'border-zinc-200 dark:border-zinc-700'}`}>
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-xs font-semibold text-zinc-500 dark:text-zinc-400">{number}</span>
          <h3 className="text-sm font-semibold">{step.title}</h3>
          <span role="status" aria-label={`${step.title}: ${status.label}`}>
            <Badge tone={status.tone}>{status.label}</Badge>
          </span>
          {canContinue && (
            <button type="button" className={`${primaryButtonClass} ml-auto`} onClick={onContinue}>
              Continue
            </button>
          )}
        </div>
        <p className="text-xs text-zinc-600 dark:text-zinc-300">
          {step.expects}
          {step.reference && (
            <>
              {' '}
              <a className="underline" href={step.reference} target="_blank" rel="noopener noreferrer">Spec</a>
            </>
          )}
        </p>
        {canContinue && opensSignIn && <p className="text-xs">Continue opens the sign-in page in a new window; approve there, and this step waits for the callback.</p>}
        {step.status === 'running' && step.id === 'callback' && <p className="text-xs">Waiting for the authorization server to send the browser back to Loupe…</p>}
        {step.verdict !== undefined && <p className="text-sm"><Text>{step.verdict}</Text></p>}
        {step.problem && (
          <div role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
            <p className="font-semibold"><Text>{step.problem.name}</Text></p>
            <p><Text>{step.problem.hint}</Text></p>
          </div>
        )}
        {step.authorizationUrl !== undefined && (
          <div className="text-xs">
            <p className="font-semibold">Authorization URL</p>
            <p className="break-all font-mono">
              {link ? <a className="underline" href={link} target="_blank" rel="noopener noreferrer"><Text>{step.authorizationUrl}</Text></a> : <Text>{step.authorizationUrl}</Text>}
            </p>
          </div>
        )}
        {step.exchanges.length > 0 && (
          <div className="space-y-1" aria-label={`HTTP exchanges of step ${number}`} role="group">
            {step.exchanges.map((exchange, i) => <ExchangeView key={i} exchange={exchange} />)}
          </div>
        )}
      </section>
    </li>
  );
}

export function GuidedSteps({ flow, onContinue }: { flow: GuidedFlow; onContinue(): void }): ReactNode {
  const running = flow.steps.some((s) => s.status === 'running');
  return (
    <ol aria-label="Guided steps" className="space-y-2">
      {flow.steps.map((step, i) => (
        <StepCard
          key={step.id}
          step={step}
          number={i + 1}
          canContinue={!flow.done && !running && i === flow.next}
          opensSignIn={step.id === 'callback' && flow.steps[i - 1]?.authorizationUrl !== undefined}
          onContinue={onContinue}
        />
      ))}
    </ol>
  );
}

/** The authorization URL the Continue of the next step opens, if that is what it does (and it is a web URL). */
export function signInUrlToOpen(flow: GuidedFlow): string | undefined {
  const next = flow.steps[flow.next];
  if (flow.done || next?.id !== 'callback') return undefined;
  return safeWebUrl(flow.steps[flow.next - 1]?.authorizationUrl);
}
