import { useEffect, useState } from 'react';

/** The wall clock, re-read every `everyMs` while `active` (for ages and countdowns). */
export function useNow(everyMs = 1_000, active = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, active]);
  return now;
}
