/**
 * What the Tools, Resources and Prompts tabs show for a session Loupe watches rather than makes
 * (issue 13: a host's session through `--tap`, a client's through `--gateway`): Loupe sends nothing
 * of its own there, so it lists nothing (a list request would fail); the traffic is in the History.
 */
import type { ReactNode } from 'react';
import type { SessionInfo } from '../../lib/wire/wire.ts';
import { Note } from '../ui/ui.tsx';

type Relay = NonNullable<SessionInfo['relay']>;

/** Whose session it is: the host's name when it said it, else the label, else "a host" / "a client". */
export function relayOwner(relay: Relay): string {
  const name = relay.client?.name ?? relay.label;
  if (name) return `${name}’s`;
  return relay.kind === 'tap' ? 'a host’s' : 'a client’s';
}

export function relayNoteText(relay: Relay): string {
  return `Loupe watches this session (${relayOwner(relay)}, through the ${relay.kind === 'tap' ? 'tap' : 'gateway'}): it sends nothing of its own. Its traffic is in the History.`;
}

export function RelayNote({ relay }: { relay: Relay }): ReactNode {
  return <Note>{relayNoteText(relay)}</Note>;
}
