/**
 * The watched sessions that have ended (issue 21): a gateway client that left, a tap that detached.
 * Nothing connects them again, and each keeps its trace for the page; beyond a cap, the oldest are
 * forgotten (the engine removes them), and the count is shown, so that a gateway serving a test
 * suite's hundreds of short sessions does not grow Loupe and every tab's snapshot without bound.
 */
import type { SessionInfo } from '../../lib/wire/wire.ts';

/** How many ended watched sessions stay in the page with their traces. */
export const ENDED_RELAYS_KEPT = 20;

export class EndedRelays {
  /** In the order they ended: a Set iterates in insertion order. */
  private readonly ended = new Set<string>();
  private count = 0;

  constructor(private readonly kept = ENDED_RELAYS_KEPT) {}

  /** How many were forgotten since launch. */
  get pruned(): number {
    return this.count;
  }

  /** A session's status changed: the ids to forget now, oldest ended first. */
  changed(info: SessionInfo): string[] {
    if (!info.relay) return [];
    if (info.status === 'connected' || info.status === 'connecting') {
      this.ended.delete(info.id);
      return [];
    }
    if (this.ended.has(info.id)) return [];
    this.ended.add(info.id);
    const prune: string[] = [];
    for (const id of this.ended) {
      if (this.ended.size <= this.kept) break;
      this.ended.delete(id);
      prune.push(id);
    }
    this.count += prune.length;
    return prune;
  }

  /** A session removed for another reason (the page's Remove): no longer counted. */
  forget(id: string): void {
    this.ended.delete(id);
  }
}
