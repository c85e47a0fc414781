/**
 * `icons` on tools, resources, templates, prompts and the server (spec 2025-11-25, "Icons").
 *
 * The page loads nothing but Loupe itself (its Content-Security-Policy allows `data:` images only),
 * so a remote icon is never fetched: it is shown as a placeholder with its URL as text. Only raster
 * `data:` images are drawn; an SVG can carry script, and is shown as a placeholder too.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/index#icons
 */
import { RASTER_IMAGE_TYPES } from './tool-result.ts';

export type IconView =
  | { kind: 'image'; src: string; mimeType: string; sizes?: string; theme?: string }
  | { kind: 'placeholder'; src: string; reason: string; sizes?: string; theme?: string };

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const DATA_URL = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)(;[^,]*)?,/i;

function viewOf(icon: Record<string, unknown>): IconView | undefined {
  const src = icon.src;
  if (typeof src !== 'string' || src === '') return undefined;
  const sizes = Array.isArray(icon.sizes) ? icon.sizes.filter((s) => typeof s === 'string').join(' ') : typeof icon.sizes === 'string' ? icon.sizes : undefined;
  const theme = typeof icon.theme === 'string' ? icon.theme : undefined;
  const extra = { ...(sizes ? { sizes } : {}), ...(theme ? { theme } : {}) };
  const data = DATA_URL.exec(src);
  if (data) {
    const mimeType = data[1].toLowerCase();
    if ((RASTER_IMAGE_TYPES as readonly string[]).includes(mimeType) && /;base64$/i.test(data[2] ?? '')) return { kind: 'image', src, mimeType, ...extra };
    return { kind: 'placeholder', src, reason: mimeType === 'image/svg+xml' ? 'SVG icons are not drawn (they can carry scripts)' : `${mimeType} is not drawn`, ...extra };
  }
  if (/^https?:/i.test(src)) return { kind: 'placeholder', src, reason: 'remote icons are not loaded: Loupe fetches nothing but the server', ...extra };
  return { kind: 'placeholder', src, reason: 'not a data: or http(s) URL', ...extra };
}

/** An untrusted `icons` member → what to show, drawable ones first; never throws. */
export function parseIcons(icons: unknown): IconView[] {
  if (!Array.isArray(icons)) return [];
  const views = icons.filter(isObj).map(viewOf).filter((v): v is IconView => v !== undefined);
  return [...views.filter((v) => v.kind === 'image'), ...views.filter((v) => v.kind !== 'image')];
}
