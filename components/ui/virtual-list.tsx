/**
 * A windowed list of fixed-height rows: only the rows in view (plus a few either side) are in the
 * DOM, so 100,000 rows scroll like 100 and a flood of new rows costs a handful of elements.
 *
 * Written here instead of taken from a package (react-window, @tanstack/react-virtual) because the
 * project adds no dependencies for what is ~100 lines once every row has the same height: the
 * first visible row is scrollTop / rowHeight, and one spacer keeps the scrollbar honest.
 * (Chrome caps an element at ~33.5 million px: 1.3 million rows of 26 px; the trace holds 100,000.)
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';

export interface VirtualListProps {
  count: number;
  /** Every row's height in px (rows must not grow). */
  rowHeight: number;
  /** Render row `index`; the list positions it. */
  renderRow(index: number): ReactNode;
  /** A sticky header above the rows (for a table: its header row). */
  header?: ReactNode;
  /** CSS height of the scrolling box (at most: a short list is as tall as its rows). */
  height: string;
  /** Rows rendered beyond the visible ones, each side. */
  overscan?: number;
  /** Keep the newest row in view while the user is at the bottom (like a terminal). */
  followTail?: boolean;
  /** Scroll row `index` into view whenever `token` changes. */
  scrollTo?: { index: number; token: number };
  /** Changes when rows changed in place (mutable rows): forces a redraw of what is visible. */
  version?: number;
  onKeyDown?(event: KeyboardEvent<HTMLDivElement>): void;
  /** ARIA for the scrolling box (role `table` with `aria-rowcount`, or `list`). */
  role?: string;
  label?: string;
  ariaRowCount?: number;
  className?: string;
}

/** Which rows to draw for a scroll position. */
export function visibleRange(scrollTop: number, viewport: number, rowHeight: number, count: number, overscan: number): { first: number; last: number } {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  return { first, last: Math.max(first, last) };
}

function useScrollState(ref: RefObject<HTMLDivElement | null>) {
  const [scroll, setScroll] = useState({ top: 0, viewport: 600 });
  const read = useCallback(() => {
    const el = ref.current;
    if (el) setScroll((s) => (s.top === el.scrollTop && s.viewport === el.clientHeight ? s : { top: el.scrollTop, viewport: el.clientHeight }));
  }, [ref]);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    read();
    const observer = new ResizeObserver(read);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, read]);
  // Read at once (React batches the updates of one frame): deferring to the next animation frame
  // would show a frame of blank rows after every jump of the scrollbar.
  const onScroll = useCallback(() => read(), [read]);
  return { scroll, onScroll, read };
}

export function VirtualList(props: VirtualListProps): ReactNode {
  const { count, rowHeight, renderRow, header, height, overscan = 8, followTail = false, scrollTo, onKeyDown, role, label, ariaRowCount, className = '' } = props;
  const ref = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const { scroll, onScroll, read } = useScrollState(ref);
  const headerHeight = header ? rowHeight : 0;

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && followTail && atBottom.current) {
      el.scrollTop = el.scrollHeight;
      read();
    }
  }, [count, followTail, read]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !scrollTo || scrollTo.index < 0) return;
    const top = scrollTo.index * rowHeight;
    const visibleHeight = el.clientHeight - headerHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + visibleHeight) el.scrollTop = top + rowHeight - visibleHeight;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < rowHeight;
    read();
    // Only a new token asks for a scroll; the index alone moving (rows added) must not.
  }, [scrollTo?.token]);

  const handleScroll = () => {
    const el = ref.current;
    if (el) atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < rowHeight;
    onScroll();
  };

  const { first, last } = visibleRange(Math.max(0, scroll.top - headerHeight), scroll.viewport, rowHeight, count, overscan);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i += 1) rows.push(renderRow(i));
  return (
    <div
      ref={ref}
      onScroll={handleScroll}
      onKeyDown={onKeyDown}
      tabIndex={onKeyDown ? 0 : undefined}
      role={role}
      aria-label={label}
      aria-rowcount={ariaRowCount}
      // The box's size never depends on its rows: `contain` keeps a batch of new rows from
      // invalidating the layout and paint of the rest of the page.
      style={{ height: `min(${count * rowHeight + headerHeight + 2}px, ${height})`, contain: 'strict' }}
      className={`relative overflow-auto ${className}`}
    >
      {header && <div className="sticky top-0 z-10">{header}</div>}
      <div style={{ height: count * rowHeight, position: 'relative' }}>
        <div style={{ position: 'absolute', top: first * rowHeight, left: 0, right: 0 }}>{rows}</div>
      </div>
    </div>
  );
}
