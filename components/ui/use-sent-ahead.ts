/**
 * A value the proxy holds, edited from the page: what the page sent comes back after a moment, so a
 * second change made before then (Width, then Height at once; add a root, then remove another)
 * must build on what was just sent, not on what is still shown, or it undoes the first.
 * `base()` is the value to build on; what was sent is forgotten once the proxy shows it (compared
 * as JSON), or when `scope` (the session) changes.
 */
import { useRef } from 'react';

export function useSentAhead<T>(shown: T, scope?: string): { base(): T; sent(next: T): void } {
  const sent = useRef<{ scope?: string; value: T } | undefined>(undefined);
  const current = sent.current;
  if (current && (current.scope !== scope || JSON.stringify(current.value) === JSON.stringify(shown))) sent.current = undefined;
  return { base: () => sent.current?.value ?? shown, sent: (value) => (sent.current = { scope, value }) };
}

/**
 * The same for a value the proxy reads again before showing it (normalised, or refused with an
 * error): what was sent is forgotten when the proxy next shows the value at all (a new `shown`),
 * since comparing texts could keep a copy the proxy will never show. Its users draw `shown` (what
 * the page shows is then what the proxy keeps) and build each change on `base()`. `send` sends a
 * value to the proxy (false when it could not); what it sent is remembered.
 */
export function useSentAheadUntilShown<T>(shown: T, send: (next: T) => boolean): { base(): T; send(next: T): boolean } {
  const sent = useRef<{ over: T; value: T } | undefined>(undefined);
  if (sent.current && sent.current.over !== shown) sent.current = undefined;
  return {
    base: () => (sent.current ? sent.current.value : shown),
    send: (value) => {
      if (!send(value)) return false;
      sent.current = { over: shown, value };
      return true;
    },
  };
}
