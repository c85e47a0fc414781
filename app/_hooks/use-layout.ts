'use client';
/** The workbench's layout (issue 26) for containers: the side column, and a resizable pane's kept width. */
import type { LayoutState } from '../_stores/layout-store.ts';
import { useServices } from './use-loupe.ts';
import { useStore } from './use-store.ts';

export const useLayout = (): LayoutState => useStore(useServices().layout);

/** The kept width of the pane `name` (undefined: never resized) and its setter, for `SplitPane`. */
export function usePaneSize(name: string): { size: number | undefined; onSize(px: number): void } {
  const { layout } = useServices();
  const state = useLayout();
  return { size: state.sizes[name], onSize: (px) => layout.setSize(name, px) };
}
