/**
 * Each session's surface history (issue 25): the points the proxy took each time a server
 * connected (`surface-point`, and all of them in the snapshot), and which two the page compares.
 * By default the last two: after a restart, what the restart changed. The comparing itself is
 * lib/surface/diff.ts, memoised per pair (a render must not diff two tool lists again).
 */
import { diffSurfaces, type SurfaceDiff } from '../../lib/surface/diff.ts';
import type { ServerMessage, SurfacePoint } from '../../lib/wire/wire.ts';
import type { MessageHost } from '../_wire/message-host.ts';
import { HostStore } from './host-store.ts';

/** As the proxy keeps them (proxy/engine/surface.ts MAX_POINTS). */
const MAX_POINTS = 12;

export interface SurfaceState {
  /** By session id, oldest first. */
  points: Readonly<Record<string, readonly SurfacePoint[]>>;
  /** The pair a session's page compares, by point id; absent: the last two. */
  chosen: Readonly<Record<string, { from: number; to: number }>>;
}

export class SurfaceStore extends HostStore<SurfaceState> {
  private readonly diffs = new Map<string, SurfaceDiff>();

  constructor(host: Pick<MessageHost, 'onMessage'>) {
    super(host, { points: {}, chosen: {} });
  }

  /** The two points compared now (older first), or undefined before a second point exists. */
  pair(session: string): { from: SurfacePoint; to: SurfacePoint } | undefined {
    const points = this.state.points[session] ?? [];
    const chosen = this.state.chosen[session];
    const byId = (id: number) => points.find((p) => p.id === id);
    const from = chosen ? byId(chosen.from) : points[points.length - 2];
    const to = chosen ? byId(chosen.to) : points[points.length - 1];
    return from && to ? { from, to } : undefined;
  }

  diff(from: SurfacePoint, to: SurfacePoint): SurfaceDiff {
    const key = `${from.id}:${to.id}`;
    let diff = this.diffs.get(key);
    if (!diff) {
      diff = diffSurfaces(from.lists, to.lists);
      this.diffs.set(key, diff);
    }
    return diff;
  }

  /** Compare these two points (by id) for this session; `undefined`: back to the last two. */
  choose(session: string, pair: { from: number; to: number } | undefined): void {
    const { [session]: _old, ...rest } = this.state.chosen;
    this.set({ ...this.state, chosen: pair ? { ...rest, [session]: pair } : rest });
  }

  protected receive(message: ServerMessage): void {
    switch (message.type) {
      case 'snapshot':
        this.diffs.clear();
        this.set({ points: message.surfaces ?? {}, chosen: {} });
        return;
      case 'surface-point': {
        const list = [...(this.state.points[message.session] ?? []), message.point].slice(-MAX_POINTS);
        // A new point shows what it changed: a pair chosen before gives way to the last two.
        const { [message.session]: _old, ...chosen } = this.state.chosen;
        this.set({ points: { ...this.state.points, [message.session]: list }, chosen });
        return;
      }
      case 'session-removed': {
        if (!(message.session in this.state.points)) return;
        const { [message.session]: _gone, ...points } = this.state.points;
        this.set({ ...this.state, points });
        return;
      }
      default:
        return;
    }
  }
}
