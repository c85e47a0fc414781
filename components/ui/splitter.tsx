/**
 * Two panes side by side with a splitter between them (WAI-ARIA window splitter: role `separator`,
 * focusable, moved with the arrow keys, Home and End, or dragged with the pointer). One pane has the
 * kept width (`sized`); the other takes the rest. Where the container is too narrow for both at their
 * least widths, the panes stack and there is nothing to resize.
 */
import { Fragment, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode, type RefObject } from 'react';

export interface SplitPaneProps {
  /** The splitter's accessible name, e.g. `Resize tool list`. */
  label: string;
  /** Which pane's width is kept: the list (`first`) or the detail (`second`). */
  sized: 'first' | 'second';
  /** The kept width in pixels (undefined: `defaultSize`). */
  size: number | undefined;
  defaultSize: number;
  min: number;
  max: number;
  /** The least width of the other pane; narrower than both, the panes stack. */
  otherMin: number;
  /** Called with the new width once a move ends (a key press, the pointer let go). */
  onSize(px: number): void;
  /** The two panes, in order (each keyed by its place: crossing into or out of stacking keeps their state). */
  children: [ReactNode, ReactNode];
  className?: string;
}

const GUTTER = 12;
const STEP = 16;
const BIG_STEP = 64;

function useWidth(): [RefObject<HTMLDivElement | null>, number | undefined] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number>();
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

const clamp = (value: number, low: number, high: number): number => Math.round(Math.min(Math.max(value, low), Math.max(low, high)));

export function SplitPane({ label, sized, size, defaultSize, min, max, otherMin, onSize, children, className = '' }: SplitPaneProps): ReactNode {
  const [first, second] = children;
  const [ref, width] = useWidth();
  const [drag, setDrag] = useState<{ x: number; from: number; now: number }>();
  const split = width !== undefined && width >= min + GUTTER + otherMin;
  const high = split ? Math.min(max, width - GUTTER - otherMin) : max;
  const shown = clamp(drag?.now ?? size ?? defaultSize, min, high);
  // Where the separator sits as the arrows see it: rightwards grows the first pane.
  const sign = sized === 'first' ? 1 : -1;
  const key = (event: KeyboardEvent) => {
    const step = event.shiftKey ? BIG_STEP : STEP;
    const next = { ArrowRight: shown + sign * step, ArrowLeft: shown - sign * step, Home: sized === 'first' ? min : high, End: sized === 'first' ? high : min }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onSize(clamp(next, min, high));
  };
  const down = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ x: event.clientX, from: shown, now: shown });
  };
  const move = (event: PointerEvent) => {
    if (drag) setDrag({ ...drag, now: clamp(drag.from + sign * (event.clientX - drag.x), min, high) });
  };
  const up = () => {
    if (!drag) return;
    onSize(drag.now);
    setDrag(undefined);
  };
  if (!split) {
    return (
      <div ref={ref} className={`grid min-w-0 gap-3 ${className}`}>
        <Fragment key="first">{first}</Fragment>
        <Fragment key="second">{second}</Fragment>
      </div>
    );
  }
  const columns = sized === 'first' ? `${shown}px ${GUTTER}px minmax(0,1fr)` : `minmax(0,1fr) ${GUTTER}px ${shown}px`;
  return (
    <div ref={ref} className={`grid min-w-0 ${className}`} style={{ gridTemplateColumns: columns }}>
      <Fragment key="first">{first}</Fragment>
      <div
        key="separator"
        role="separator"
        aria-orientation="vertical"
        aria-label={label}
        aria-valuenow={shown}
        aria-valuemin={min}
        aria-valuemax={high}
        aria-valuetext={`${shown} pixels`}
        tabIndex={0}
        onKeyDown={key}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
        title={`${label} (drag, or arrow keys)`}
        className={`group flex cursor-col-resize touch-none justify-center rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 ${drag ? 'select-none' : ''}`}
      >
        <span aria-hidden="true" className={drag ? 'w-0.5 bg-sky-500' : 'w-px bg-zinc-200 group-hover:w-0.5 group-hover:bg-sky-500 group-focus-visible:w-0.5 group-focus-visible:bg-sky-500 dark:bg-zinc-700'} />
      </div>
      <Fragment key="second">{second}</Fragment>
    </div>
  );
}
