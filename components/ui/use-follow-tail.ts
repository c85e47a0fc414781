import { useLayoutEffect, useRef } from 'react';

/** Keep the newest row in view while the user is at the bottom (like a terminal; `rowCount` is anything that changes when content is added). */
export function useFollowTail(rowCount: number) {
  const ref = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [rowCount]);
  const onScroll = () => {
    const el = ref.current;
    if (el) atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
  };
  return { ref, onScroll };
}

