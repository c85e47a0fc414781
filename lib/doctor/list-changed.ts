/**
 * `list_changed` declared but not sent (issue 14, server lint): from the session's trace, each list
 * the server says it announces (`capabilities.<kind>.listChanged`) that Loupe saw change between
 * two of its fetches (the first pages differ by name or URI) with no
 * `notifications/<kind>/list_changed` from the server in between. Loupe's own fetches are enough to
 * observe it: the page lists when it connects, and the doctor lists again when it runs.
 * https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification
 */
import type { Finding } from '../model/doctor.ts';
import { conversationOf, type Exchange } from '../trace/exchanges.ts';
import type { TraceEvent } from '../wire/wire.ts';

const KINDS = [
  { capability: 'tools', method: 'tools/list', items: 'tools', key: 'name', notification: 'notifications/tools/list_changed', section: 'server/tools#list-changed-notification' },
  { capability: 'prompts', method: 'prompts/list', items: 'prompts', key: 'name', notification: 'notifications/prompts/list_changed', section: 'server/prompts#list-changed-notification' },
  { capability: 'resources', method: 'resources/list', items: 'resources', key: 'uri', notification: 'notifications/resources/list_changed', section: 'server/resources#list-changed-notification' },
] as const;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The names (or URIs) of a first page, sorted: what a change of the list is judged by. */
function namesOf(exchange: Exchange, items: string, key: string): string | undefined {
  const response = exchange.response;
  if (!response?.ok || !isObject(response.result) || !Array.isArray(response.result[items])) return undefined;
  return (response.result[items] as unknown[])
    .map((item) => (isObject(item) ? String(item[key]) : ''))
    .sort()
    .join('\n');
}

const firstPage = (exchange: Exchange): boolean => !isObject(exchange.params) || exchange.params.cursor === undefined;

export function listChangedFindings(events: readonly TraceEvent[], capabilities: Record<string, unknown> | undefined): Finding[] {
  const conversation = conversationOf(events);
  const findings: Finding[] = [];
  for (const kind of KINDS) {
    const declared = capabilities?.[kind.capability];
    if (!isObject(declared) || declared.listChanged !== true) continue;
    const fetches = conversation.exchanges.filter((e) => e.method === kind.method && firstPage(e)).flatMap((e) => {
      const names = namesOf(e, kind.items, kind.key);
      return names === undefined ? [] : [{ exchange: e, names }];
    });
    const told = conversation.serverMessages.filter((m) => m.method === kind.notification).map((m) => m.seq);
    for (let i = 1; i < fetches.length; i++) {
      const before = fetches[i - 1];
      const after = fetches[i];
      if (before.names === after.names) continue;
      const from = before.exchange.response!.seq;
      if (told.some((seq) => seq > from && seq < after.exchange.seq)) continue;
      findings.push({
        severity: 'warning',
        about: { kind: 'server' },
        rule: 'list-changed-not-sent',
        message: `The ${kind.capability} list changed between Loupe's ${kind.method} at frame #${before.exchange.seq} and the one at #${after.exchange.seq}, but the server, which declares ${kind.capability}.listChanged, sent no ${kind.notification} in between.`,
        fix: `Send ${kind.notification} whenever the ${kind.capability} change, or stop declaring ${kind.capability}.listChanged.`,
        source: { label: `MCP 2025-11-25: ${kind.capability} list changed notification`, url: `https://modelcontextprotocol.io/specification/2025-11-25/${kind.section}` },
      });
      break;
    }
  }
  return findings;
}
