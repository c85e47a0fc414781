/**
 * A server's icon. Only raster `data:` images are drawn (the page loads nothing from elsewhere, by
 * its CSP); anything else is a placeholder that names the URL as text.
 */
import type { ReactNode } from 'react';
import type { IconView } from '../../lib/content/icons.ts';
import { Text } from './text.tsx';

export function IconImage({ icons, size = 20, showUrl = false }: { icons: readonly IconView[]; size?: number; showUrl?: boolean }): ReactNode {
  const icon = icons[0];
  if (icon === undefined) return null;
  const box = { width: size, height: size };
  if (icon.kind === 'image') {
    return <img src={icon.src} alt="" style={box} className="shrink-0 rounded-sm object-contain" data-icon="image" />;
  }
  return (
    <span className="inline-flex min-w-0 items-center gap-1" title={`${icon.reason}: ${icon.src.slice(0, 500)}`} data-icon="placeholder">
      <span aria-hidden="true" style={box} className="inline-flex shrink-0 items-center justify-center rounded-sm border border-dashed border-zinc-400 text-[10px] text-zinc-500 dark:text-zinc-400 dark:border-zinc-500">?</span>
      {showUrl && <Text className="max-w-[14rem] truncate font-mono text-[10px] text-zinc-500 dark:text-zinc-400">{icon.src.slice(0, 300)}</Text>}
    </span>
  );
}

/** A line saying why an icon is not drawn, with its URL as text (for headers, where there is room). */
export function IconNote({ icons }: { icons: readonly IconView[] }): ReactNode {
  const icon = icons[0];
  if (icon === undefined || icon.kind === 'image') return null;
  return (
    <p className="break-all text-[11px] text-zinc-500 dark:text-zinc-400">
      Icon not shown (<Text>{icon.reason}</Text>): <Text className="font-mono">{icon.src.slice(0, 500)}</Text>
    </p>
  );
}
