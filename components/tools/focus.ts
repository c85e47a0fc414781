/**
 * Where focus goes (issue 26): to a tool's first field when the tool is chosen, to the first field
 * a refused form names. Forms draw late (rjsf loads with the first one), so the first field is
 * looked for frame by frame for a while; nothing is taken from a person who moved on meanwhile.
 */
import { useEffect, type RefObject } from 'react';

const FIELD = 'form :is(input:not([type=hidden]):not([disabled]), textarea:not([disabled]), select:not([disabled]))';
/** About two seconds of frames: rjsf and its validator load with the first form drawn. */
const TRIES = 120;

/** Focus `find()`'s element once it exists, unless focus moved elsewhere meanwhile. */
function focusWhenDrawn(find: () => HTMLElement | null | undefined, fallback?: () => HTMLElement | null | undefined): void {
  const started = document.activeElement;
  let tries = 0;
  const attempt = () => {
    if (document.activeElement !== started) return;
    const el = find() ?? (tries >= TRIES ? fallback?.() : undefined);
    if (el) {
      el.focus();
      return;
    }
    if (tries++ < TRIES) requestAnimationFrame(attempt);
  };
  attempt();
}

/**
 * When `token` is set: focus the first field under `root` (or its submit button: a tool without
 * arguments). `done()` is called at once (the token is spent: a later remount takes nothing); the
 * search goes on by itself and ends with the element found, focus moved elsewhere, or time up.
 */
export function useFocusFirstField(root: RefObject<HTMLElement | null>, token: number | undefined, done?: () => void): void {
  useEffect(() => {
    if (token === undefined) return;
    done?.();
    focusWhenDrawn(
      () => root.current?.querySelector<HTMLElement>(FIELD),
      () => root.current?.querySelector<HTMLElement>('button[type=submit]'),
    );
  }, [token]); // once per token: root and done are read when it comes
}

/** The rjsf id of a JSON Pointer path (`/a/b` → `root_a_b`). */
export function fieldIdOf(path: string): string {
  return ['root', ...path.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))].join('_');
}

/** Focus the field of the first issue (or the first field, or the JSON editor) and bring it into view. */
export function focusInvalid(root: HTMLElement | null, paths: readonly string[]): void {
  if (!root) return;
  const id = paths.map(fieldIdOf).find((candidate) => candidate !== 'root' && root.querySelector(`[id="${CSS.escape(candidate)}"], [id^="${CSS.escape(candidate)}"]`));
  const el = (id !== undefined ? root.querySelector<HTMLElement>(`[id="${CSS.escape(id)}"]`) ?? root.querySelector<HTMLElement>(`[id^="${CSS.escape(id)}"]`) : null) ?? root.querySelector<HTMLElement>(FIELD);
  if (!el) return;
  el.focus();
  el.scrollIntoView({ block: 'center' });
}
