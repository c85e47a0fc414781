/**
 * One finding of the server doctor (issue 14): its severity, rule, message, fix and source (a link
 * to the spec section or provider document, with the date a provider's document was read), the
 * cleaned schema of a provider finding in a collapsible tree, and for a frame a way to it in
 * History. Messages name server things (tool names, descriptions): they are rendered as text.
 */
import type { ReactNode } from 'react';
import type { Finding, Severity } from '../../lib/model/doctor.ts';
import { ResultJsonTree } from '../results/json-tree.tsx';
import { Text } from '../ui/text.tsx';
import { Badge, buttonClass, type Tone } from '../ui/ui.tsx';

const SEVERITY: Record<Severity, { label: string; tone: Tone }> = {
  error: { label: 'Error', tone: 'bad' },
  warning: { label: 'Warning', tone: 'warn' },
  info: { label: 'Info', tone: 'info' },
};

const PROVIDERS: Record<string, string> = { 'openai-strict': 'OpenAI (strict)', openai: 'OpenAI', anthropic: 'Anthropic', gemini: 'Gemini' };

const linkClass = 'text-sky-700 underline hover:text-sky-900 dark:text-sky-300 dark:hover:text-sky-100';
const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

/** Only web links become links: a source is Loupe's own data, but a link is never a script. */
function isWebLink(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

export function providerLabel(provider: string): string {
  return PROVIDERS[provider] ?? provider;
}

export function SourceLine({ source }: { source: Finding['source'] }): ReactNode {
  return (
    <p className="text-xs text-zinc-600 dark:text-zinc-300">
      Source:{' '}
      {isWebLink(source.url) ? (
        <a href={source.url} target="_blank" rel="noreferrer noopener" className={linkClass}>
          <Text>{source.label}</Text>
        </a>
      ) : (
        <Text>{`${source.label} (${source.url})`}</Text>
      )}
      {source.read !== undefined && <> (read <Text>{source.read}</Text>)</>}
    </p>
  );
}

export function FindingItem({ finding, onShowFrame }: { finding: Finding; onShowFrame?(seq: number): void }): ReactNode {
  const severity = SEVERITY[finding.severity];
  const about = finding.about;
  const provider = finding.provider !== undefined ? providerLabel(finding.provider) : undefined;
  return (
    <li className="space-y-1 border-t border-zinc-200 py-2 first:border-t-0 dark:border-zinc-700">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <Badge tone={severity.tone}>{severity.label}</Badge>
        <code className="font-mono text-zinc-700 dark:text-zinc-200"><Text>{finding.rule}</Text></code>
        {provider !== undefined && <Badge><Text>{provider}</Text></Badge>}
        {about.kind === 'frame' && (
          <span className="text-zinc-600 dark:text-zinc-300">
            Frame #{about.seq}
            {about.method !== undefined && <> <Text className="font-mono">{about.method}</Text></>}
          </span>
        )}
      </div>
      <p className="text-sm text-zinc-900 dark:text-zinc-100"><Text>{finding.message}</Text></p>
      <p className="text-sm text-zinc-700 dark:text-zinc-200">Fix: <Text>{finding.fix}</Text></p>
      <SourceLine source={finding.source} />
      {finding.cleaned !== undefined && (
        <details className="text-xs">
          <summary className="cursor-pointer text-zinc-700 dark:text-zinc-200">Cleaned schema{provider !== undefined && <> for <Text>{provider}</Text></>}</summary>
          <div className="mt-1 overflow-x-auto rounded border border-zinc-200 p-2 dark:border-zinc-700">
            <ResultJsonTree value={finding.cleaned} label={`Cleaned schema${provider !== undefined ? ` for ${provider}` : ''}`} />
          </div>
        </details>
      )}
      {about.kind === 'frame' && onShowFrame && (
        <button type="button" className={small} onClick={() => onShowFrame(about.seq)}>Show in History</button>
      )}
    </li>
  );
}
