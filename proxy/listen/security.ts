/**
 * The proxy starts processes on the user's machine: anyone who can reach it can run code
 * (the official inspector's CVE-2025-49596). These checks keep it to this user's own browser tab:
 * a per-launch token, a loopback Host (against DNS rebinding) and a same-origin Origin.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export function newToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopbackAddress(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Splits a Host header into name and port (`[::1]:80` keeps its brackets). */
function splitHost(host: string): { name: string; port?: string } {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.trim());
  return match ? { name: match[1].toLowerCase(), port: match[2] } : { name: '' };
}

export interface HostPolicy {
  port: number;
  /** Extra host names accepted, when the user opted in to listening beyond loopback. */
  extraHosts?: string[];
}

/** A request must name this machine's loopback (or an opted-in address) and our port. */
export function isAllowedHost(hostHeader: string | undefined, policy: HostPolicy): boolean {
  if (!hostHeader) return false;
  const { name, port } = splitHost(hostHeader);
  const known = LOOPBACK_NAMES.has(name) || (policy.extraHosts ?? []).some((h) => h.toLowerCase() === name);
  return known && (port === undefined ? policy.port === 80 : Number(port) === policy.port);
}

/**
 * Browsers always send Origin on a WebSocket upgrade and on cross-origin requests; it must be our
 * own page. No Origin at all means a non-browser client (a script, the benchmarks), which still
 * needs the token.
 */
export function isAllowedOrigin(origin: string | undefined, policy: HostPolicy): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:') return false;
  return isAllowedHost(url.host, policy);
}
