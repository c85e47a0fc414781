'use client';
/** The selected server's surface history (issue 25): what changed between two of its connects, by default the last two. */
import type { ReactNode } from 'react';
import { SurfaceChanges } from '@/components/servers/surface-changes.tsx';
import { useServices } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';

export function SurfaceContainer({ id }: { id: string | undefined }): ReactNode {
  const { surfaces } = useServices();
  const state = useStore(surfaces);
  if (id === undefined) return null;
  const pair = surfaces.pair(id);
  if (!pair) return null;
  const points = state.points[id] ?? [];
  const problems = [...(pair.from.problems ?? []), ...(pair.to.problems ?? [])];
  return <SurfaceChanges points={points} from={pair.from} to={pair.to} diff={surfaces.diff(pair.from, pair.to)} problems={problems} onChoose={(chosen) => surfaces.choose(id, chosen)} />;
}
