/**
 * A session's surface over time (issue 25): each time a server connects (first, after a restart,
 * after a reconnect) Loupe lists its tools, resource templates, resources and prompts (every page)
 * and keeps that as a point. The page compares any two points with lib/surface/diff.ts; after a
 * restart it shows the last two at once. The lists are Loupe's own requests: they are in the
 * History like any other, with ids `loupe-surface-N`.
 */
import type { SurfacePoint } from '../../lib/wire/surface.ts';
import type { Session } from '../session/session.ts';

/** Points kept per session (the oldest go first). */
export const MAX_POINTS = 12;
/** Pages followed per list: a server that hands out cursors without end is cut off here, and it is said. */
const MAX_PAGES = 50;
const LIST_TIMEOUT_MS = 15_000;

const LISTS = [
  { capability: 'tools', method: 'tools/list', key: 'tools' },
  { capability: 'resources', method: 'resources/list', key: 'resources' },
  { capability: 'resources', method: 'resources/templates/list', key: 'resourceTemplates' },
  { capability: 'prompts', method: 'prompts/list', key: 'prompts' },
] as const;

let nextRequest = 1;
let nextPoint = 1;

/** Lists what the server declared it has; what could not be listed is said in `problems`, the rest kept. */
export async function captureSurface(session: Session, reason: string): Promise<SurfacePoint | undefined> {
  const capabilities = session.snapshot().capabilities ?? {};
  const lists: SurfacePoint['lists'] = { tools: [], resourceTemplates: [], resources: [], prompts: [] };
  const problems: string[] = [];
  for (const { capability, method, key } of LISTS) {
    if (capabilities[capability] === undefined) continue;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const outcome = await session.request(`loupe-surface-${nextRequest++}`, method, cursor ? { cursor } : undefined, { timeoutMs: LIST_TIMEOUT_MS });
      // A session that went away meanwhile (another restart) has no point to keep.
      if (session.status !== 'connected') return undefined;
      if (!outcome.ok) {
        problems.push(`${method}: ${outcome.error.message}`);
        break;
      }
      const result = (outcome.result ?? {}) as Record<string, unknown>;
      const items = result[key];
      if (Array.isArray(items)) lists[key].push(...(items as unknown[]));
      cursor = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
      if (!cursor) break;
      if (page === MAX_PAGES - 1) problems.push(`${method}: stopped after ${MAX_PAGES} pages`);
    }
  }
  return { id: nextPoint++, at: Date.now(), seq: session.trace.lastSeq, reason, lists, ...(problems.length > 0 ? { problems } : {}) };
}

/** The points of each session, newest last. */
export class SurfaceHistory {
  private readonly points = new Map<string, SurfacePoint[]>();

  add(session: string, point: SurfacePoint): void {
    const list = this.points.get(session) ?? [];
    list.push(point);
    if (list.length > MAX_POINTS) list.splice(0, list.length - MAX_POINTS);
    this.points.set(session, list);
  }

  of(session: string): SurfacePoint[] {
    return this.points.get(session) ?? [];
  }

  all(): Record<string, SurfacePoint[]> {
    return Object.fromEntries(this.points);
  }

  forget(session: string): void {
    this.points.delete(session);
  }
}
