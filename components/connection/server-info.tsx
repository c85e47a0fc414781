/**
 * What the server said about itself, in `initialize` (2025-11-25) or `server/discover`
 * (2026-07-28): identity, protocol, capabilities, the versions and extensions it offers,
 * instructions. Every string in it is the server's, shown as text.
 */
import type { ReactNode } from 'react';
import type { SessionInfo } from '../../lib/wire/wire.ts';
import { formatJson } from '../../lib/json/safe-json.ts';
import { ERA_LABELS, eraOf } from './protocol-model.ts';
import { Pre, Text } from '../ui/text.tsx';
import { Badge, Note, Panel } from '../ui/ui.tsx';

function extensionsOf(capabilities: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const value = capabilities?.extensions;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function Row({ term, children }: { term: string; children: ReactNode }): ReactNode {
  return (
    <>
      <dt className="text-zinc-500 dark:text-zinc-400">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

/** One declared capability with its sub-flags (`listChanged`, `subscribe`, …). */
function Capability({ name, value }: { name: string; value: unknown }): ReactNode {
  const flags = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value as Record<string, unknown>) : [];
  return (
    <li className="flex flex-wrap items-center gap-1">
      <Badge tone="info"><Text>{name}</Text></Badge>
      {flags.map(([flag, on]) => (
        <Badge key={flag} tone={on === false ? 'neutral' : 'good'} title={JSON.stringify(on)}>
          <Text>{typeof on === 'boolean' ? (on ? flag : `${flag}: false`) : flag}</Text>
        </Badge>
      ))}
    </li>
  );
}

const heading = 'mt-3 mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400';

/** `capabilities.extensions` (2026-07-28): each extension's identifier and its settings as sent. */
function Extensions({ extensions }: { extensions: Record<string, unknown> }): ReactNode {
  const entries = Object.entries(extensions);
  return (
    <>
      <h3 className={heading}>Extensions</h3>
      {entries.length === 0 ? <Note>The server declared no extensions.</Note> : (
        <ul aria-label="Extensions" className="space-y-1 text-sm">
          {entries.map(([name, settings]) => {
            const text = settings !== null && typeof settings === 'object' && Object.keys(settings).length === 0 ? undefined : formatJson(settings).text;
            return (
              <li key={name}>
                <Badge tone="info"><Text>{name}</Text></Badge>
                {text !== undefined && <Pre className="mt-0.5 max-h-32 overflow-auto rounded bg-zinc-50 p-1 dark:bg-zinc-800/60">{text}</Pre>}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}

export function ServerPanel({ session }: { session?: SessionInfo }): ReactNode {
  if (!session || (session.serverInfo === undefined && session.capabilities === undefined)) {
    return (
      <Panel title="Server">
        <Note>Connect to see what the server says about itself.</Note>
      </Panel>
    );
  }
  const info = session.serverInfo ?? {};
  const modern = eraOf(session) === 'modern';
  const extensions = session.discovery?.extensions ?? (modern ? extensionsOf(session.capabilities) : undefined);
  // The extensions map has its own section; a badge row of its keys beside it would say it twice.
  const caps = Object.entries(session.capabilities ?? {}).filter(([name]) => !(extensions && name === 'extensions'));
  return (
    <Panel title="Server">
      <p className="mb-2 text-xs text-zinc-500 dark:text-zinc-400">
        As the server said in <span className="font-mono">{modern ? 'server/discover' : 'initialize'}</span>
      </p>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-sm">
        <Row term="Name"><Text className="font-semibold">{info.name ?? '(none)'}</Text></Row>
        {info.version !== undefined && <Row term="Version"><Text>{info.version}</Text></Row>}
        {info.title !== undefined && <Row term="Title"><Text>{info.title}</Text></Row>}
        {info.websiteUrl !== undefined && <Row term="Website"><Text className="font-mono text-xs">{info.websiteUrl}</Text></Row>}
        <Row term="Protocol"><Text className="font-mono text-xs">{session.protocolVersion ?? 'unknown'}</Text>{` · ${ERA_LABELS[eraOf(session)]}`}</Row>
        {session.discovery && (
          <Row term="Supported versions">
            {session.discovery.supportedVersions.length === 0 ? '(none listed)' : <Text className="font-mono text-xs">{session.discovery.supportedVersions.join(', ')}</Text>}
          </Row>
        )}
        <Row term="Transport">{session.transport ?? session.config.kind}{session.pid !== undefined ? ` · pid ${session.pid}` : ''}</Row>
      </dl>
      <h3 className={heading}>Capabilities</h3>
      {caps.length === 0 ? <Note>The server declared no capabilities.</Note> : (
        <ul className="space-y-1">
          {caps.map(([name, value]) => <Capability key={name} name={name} value={value} />)}
        </ul>
      )}
      {extensions && <Extensions extensions={extensions} />}
      {session.instructions !== undefined && session.instructions !== '' && (
        <>
          <h3 className={heading}>Instructions</h3>
          {/* A scrolling box must be reachable by keyboard (axe scrollable-region-focusable): a named, focusable region. */}
          <div tabIndex={0} role="region" aria-label="Server instructions" className="max-h-48 overflow-auto rounded bg-zinc-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500/40 dark:bg-zinc-800/60">
            <Pre mono={false} className="p-2 text-sm">{session.instructions}</Pre>
          </div>
        </>
      )}
    </Panel>
  );
}
