/**
 * The Protocol region of the connection panel (issue 12): which generation the session speaks
 * and the exact version, and, when Loupe chose or checked it, what it asked for, what it
 * concluded and why (the probe it sent and the answer it got). A debugging tool must say which
 * protocol it speaks rather than negotiate silently.
 */
import type { ReactNode } from 'react';
import type { SessionInfo } from '../../lib/wire/base.ts';
import { ERA_LABELS, eraOf, MODE_LABELS } from './protocol-model.ts';
import { Text } from '../ui/text.tsx';
import { Badge } from '../ui/ui.tsx';

export interface ProtocolInfoProps {
  session: Pick<SessionInfo, 'era' | 'negotiation' | 'protocolVersion' | 'status' | 'config'>;
}

function Row({ term, children }: { term: string; children: ReactNode }): ReactNode {
  return (
    <>
      <dt className="text-zinc-500 dark:text-zinc-400">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

/** Whether there is anything to say: a generation in use, or a verdict (a failed Auto has one). */
export function hasProtocolInfo(session: ProtocolInfoProps['session'] | undefined): boolean {
  return session !== undefined && (session.status === 'connected' || session.negotiation !== undefined);
}

export function ProtocolInfo({ session }: ProtocolInfoProps): ReactNode {
  const era = eraOf(session);
  const negotiation = session.negotiation;
  const connected = session.status === 'connected';
  return (
    <section aria-label="Protocol" className="mb-3 rounded-md border border-zinc-200 p-2 text-sm dark:border-zinc-700">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Protocol</span>
        {/* Only what is in use; a failed verdict names its era in the rows below. */}
        {connected && <Badge tone={era === 'modern' ? 'info' : 'neutral'}>{ERA_LABELS[era]}</Badge>}
        {connected && session.protocolVersion !== undefined && (
          <span className="text-xs text-zinc-600 dark:text-zinc-300">
            protocolVersion <Text className="font-mono">{session.protocolVersion}</Text>
          </span>
        )}
      </div>
      {negotiation && (
        <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5 text-xs">
          <Row term="Asked for">{MODE_LABELS[negotiation.mode]}</Row>
          {negotiation.mode === 'auto' && <Row term="Concluded">{ERA_LABELS[negotiation.era]}</Row>}
          {/* The reason quotes what the server answered: server text, shown as text. */}
          <Row term="Why"><Text>{negotiation.reason}</Text></Row>
          {negotiation.probe !== undefined && <Row term="Probe"><Text className="font-mono">{negotiation.probe}</Text></Row>}
          {negotiation.answer !== undefined && <Row term="Answer"><Text className="font-mono">{negotiation.answer}</Text></Row>}
        </dl>
      )}
    </section>
  );
}
