/**
 * A provider row of the History in full (issue 15): one exchange of the Playground (or of a
 * sampling request's Ask model) with a model provider, made by the proxy — URL, status, time,
 * model, tokens, the request headers as the proxy recorded them (the key masked there, never
 * unmasked here), and both bodies: as a JSON tree when they are JSON, else as the text that came
 * (a streamed reply is its raw SSE text).
 */
import { memo, useMemo, type ReactNode } from 'react';
import { jsonOf } from '../../lib/playground/types.ts';
import { formatDuration, formatSize } from '../../lib/trace/trace.ts';
import type { ProviderEvent } from '../../lib/wire/events.ts';
import { FrameJsonTree } from './frame-json-tree.tsx';
import { Pre, Text } from '../ui/text.tsx';
import { CopyButtons } from './trace-copy-buttons.tsx';
import { FactList, type Fact } from '../ui/fact-list.tsx';

const PROVIDERS: Record<ProviderEvent['provider'], string> = { anthropic: 'Anthropic', 'openai-compatible': 'OpenAI-compatible' };
const box = 'rounded-md bg-zinc-50 p-2 dark:bg-zinc-950';

/** A body as a tree when it is JSON; parsed once per body. */
const BodyView = memo(function BodyView({ label, text }: { label: string; text: string }): ReactNode {
  const json = useMemo(() => (text.trimStart().startsWith('{') || text.trimStart().startsWith('[') ? jsonOf(text) : undefined), [text]);
  return (
    <section aria-label={label}>
      <h4 className="text-xs font-semibold text-zinc-700 dark:text-zinc-200">
        {label} <span className="font-normal text-zinc-600 dark:text-zinc-300">({formatSize(text.length)})</span>
      </h4>
      {text === '' ? <p className="text-xs text-zinc-600 dark:text-zinc-300">Empty.</p> : json !== undefined ? <div className={box}><FrameJsonTree value={json} /></div> : <Pre className={box}>{text}</Pre>}
    </section>
  );
});

export function ProviderDetail({ event }: { event: ProviderEvent }): ReactNode {
  const facts: Fact[] = [
    ['Exchange', `${PROVIDERS[event.provider]} ${event.exchange === 'models' ? 'model list' : `chat${event.stream ? ' (streamed)' : ''}`}`],
    ['URL', event.url],
    ['Status', event.status === undefined ? undefined : String(event.status)],
    ['Time', formatDuration(event.durationMs)],
    ['Model', event.model],
    ['Tokens', event.usage ? `${event.usage.inputTokens} in · ${event.usage.outputTokens} out` : undefined],
    ['Error', event.error],
  ];
  const headers = Object.entries(event.requestHeaders);
  return (
    <div className="space-y-2 text-sm">
      <FactList facts={facts} />
      {headers.length > 0 && (
        <section aria-label="Request headers">
          <h4 className="text-xs font-semibold text-zinc-700 dark:text-zinc-200">Request headers (the key masked by Loupe)</h4>
          <dl className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-3 font-mono text-xs">
            {headers.map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="text-zinc-600 dark:text-zinc-300"><Text>{name}</Text></dt>
                <dd className="break-all"><Text>{value}</Text></dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      <CopyButtons choices={[{ label: 'Copy request body', text: event.requestBody }, { label: 'Copy response body', text: event.responseBody }]} />
      <BodyView label="Request body" text={event.requestBody} />
      <BodyView label="Response body" text={event.responseBody} />
    </div>
  );
}
