/**
 * The words the page uses for a session's protocol generation (issue 12): which one is in use,
 * what Auto concluded, the `subscriptions/listen` stream's state, and the Subscriptions form ⇄ a
 * filter. Pure, so that every sentence can be tested without a DOM.
 */
import type { ListenState, SessionInfo, SubscriptionFilter } from '../../lib/wire/base.ts';

export type Era = 'legacy' | 'modern';

/** The generation as the Protocol combobox names it (docs/contract.md). */
export const ERA_LABELS: Record<Era, string> = {
  legacy: '2025-11-25 (sessions)',
  modern: '2026-07-28 (stateless)',
};

export const MODE_LABELS: Record<'2025-11-25' | '2026-07-28' | 'auto', string> = {
  '2025-11-25': '2025-11-25 (sessions)',
  '2026-07-28': '2026-07-28 (stateless)',
  auto: 'Auto',
};

/**
 * The era of a session. A proxy from before issue 12 sends none: every session it made was a
 * 2025 one, so absent means legacy.
 */
export function eraOf(session: Pick<SessionInfo, 'era' | 'negotiation'> | undefined): Era {
  return session?.era ?? session?.negotiation?.era ?? 'legacy';
}

export const isModern = (session: Pick<SessionInfo, 'era' | 'negotiation'> | undefined): boolean => session !== undefined && eraOf(session) === 'modern';

/** The Subscriptions form as typed. */
export interface SubscriptionDraft {
  tools: boolean;
  prompts: boolean;
  resources: boolean;
  /** One URI per line or comma separated. */
  uris: string;
}

export const EMPTY_DRAFT: SubscriptionDraft = { tools: false, prompts: false, resources: false, uris: '' };

/** The URIs typed, in order, each once; blank entries dropped. */
export function parseUris(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\n,]/)) {
    const uri = part.trim();
    if (uri !== '') seen.add(uri);
  }
  return [...seen];
}

/** The filter `listen` sends; only what was asked for is in it. */
export function filterFromDraft(draft: SubscriptionDraft): SubscriptionFilter {
  const uris = parseUris(draft.uris);
  return {
    ...(draft.tools ? { toolsListChanged: true } : {}),
    ...(draft.prompts ? { promptsListChanged: true } : {}),
    ...(draft.resources ? { resourcesListChanged: true } : {}),
    ...(uris.length > 0 ? { resourceSubscriptions: uris } : {}),
  };
}

export function draftFromFilter(filter: SubscriptionFilter | undefined): SubscriptionDraft {
  if (!filter) return EMPTY_DRAFT;
  return { tools: filter.toolsListChanged === true, prompts: filter.promptsListChanged === true, resources: filter.resourcesListChanged === true, uris: (filter.resourceSubscriptions ?? []).join('\n') };
}

export const isEmptyFilter = (filter: SubscriptionFilter): boolean => Object.keys(filter).length === 0;

/** A filter in words: "tools list changes, updates of fixture://counter". */
export function filterWords(filter: SubscriptionFilter): string {
  const parts: string[] = [];
  if (filter.toolsListChanged) parts.push('tools list changes');
  if (filter.promptsListChanged) parts.push('prompts list changes');
  if (filter.resourcesListChanged) parts.push('resources list changes');
  const uris = filter.resourceSubscriptions ?? [];
  if (uris.length > 0) parts.push(`updates of ${uris.join(', ')}`);
  return parts.length === 0 ? 'nothing' : parts.join(', ');
}

const sameFilter = (a: SubscriptionFilter, b: SubscriptionFilter): boolean => filterWords(a) === filterWords(b);

/** The stream's state in one or two sentences; `tone` colours it. */
export function listenWords(listen: ListenState | undefined): { text: string; tone: 'neutral' | 'good' | 'bad' } {
  if (!listen) return { text: 'Not listening. Choose what to hear about and press Listen.', tone: 'neutral' };
  const id = listen.rpcId !== undefined ? ` (subscription id ${String(listen.rpcId)})` : '';
  switch (listen.state) {
    case 'opening':
      return { text: `Opening subscriptions/listen for ${filterWords(listen.filter)}…`, tone: 'neutral' };
    case 'open': {
      if (!listen.honored) return { text: `Listening${id}; the server has not acknowledged yet. Asked for ${filterWords(listen.filter)}.`, tone: 'good' };
      const honored = `The server honoured ${filterWords(listen.honored)}`;
      const differs = sameFilter(listen.filter, listen.honored) ? '' : ` (asked for ${filterWords(listen.filter)})`;
      return { text: `Listening${id}. ${honored}${differs}.`, tone: 'good' };
    }
    case 'closed':
      return closedWords(listen);
  }
}

function closedWords(listen: ListenState): { text: string; tone: 'neutral' | 'bad' } {
  switch (listen.closed) {
    case 'local':
      return { text: 'Stopped: you closed the stream.', tone: 'neutral' };
    case 'graceful':
      return { text: 'Stopped: the server ended the stream with an empty result.', tone: 'neutral' };
    case 'remote':
      return { text: `Stopped: the stream dropped${listen.error ? `: ${listen.error}` : ''}. Press Listen to open it again.`, tone: 'bad' };
    case 'error':
      return { text: `Stopped with an error: ${listen.error ?? 'the server refused subscriptions/listen'}.`, tone: 'bad' };
    default:
      return { text: listen.error ? `Stopped: ${listen.error}` : 'Stopped.', tone: listen.error ? 'bad' : 'neutral' };
  }
}
