/**
 * The one rule for credentials in what Loupe shows, records and exports (issue 21, item 2): every
 * trace event passes through `maskTraceEvent` in the proxy's recorder before anything sees it (the
 * page, `--record`, `--verbose`, the gateway's relays), and again when a trace is exported.
 *
 * Two nets. By header name: `isSecretHeader` (Authorization keeps its scheme, the rest of the
 * value becomes its length). By value: the exact values the user supplied (every header value of a
 * remote server that may carry a credential, env values marked secret, `${input:…}` answers,
 * playground keys) are replaced wherever they appear, in the encodings a server may echo them in:
 * as written, JSON-escaped (`\/`, `\u002f`), URL-encoded (`%2F`, `%252F`) and base64 (standard and
 * URL-safe, at any byte offset, so inside a larger `Basic …` or `Bearer …` token too).
 *
 * Pure string functions, for the proxy and the page alike (no Buffer).
 */
import type { TraceEvent } from '../wire/wire.ts';
import { maskSpan } from '../otel/mask.ts';

/** Credential headers of known services, named because "key" and "auth" in a name are not always credentials. */
const NAMED_SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'x-functions-key',
  'ocp-apim-subscription-key',
  'x-auth',
]);
const SECRET_HEADER_WORD = /key|token|secret|auth|passw(or)?d|cookie|session|signature|credential/i;

/**
 * Names the word rule catches that carry no credential and that debugging needs to read:
 * - `Mcp-Session-Id` is assigned by the server and names a session, not a user; the spec forbids
 *   servers to use it for authentication (basic/security_best_practices#session-hijacking), and
 *   which request carried which session is how a 404, a renewal or a resumption is understood;
 * - `WWW-Authenticate` / `Proxy-Authenticate` are the server's challenge (error, scope,
 *   `resource_metadata`): what a person debugging a sign-in reads first;
 * - `Access-Control-Allow-Credentials` is a CORS flag (`true`).
 */
const VISIBLE_HEADERS: ReadonlySet<string> = new Set(['mcp-session-id', 'www-authenticate', 'proxy-authenticate', 'access-control-allow-credentials']);

/** Request headers that say how to talk, never who is talking: a value given for them is not a credential. */
const PLAIN_HEADERS: ReadonlySet<string> = new Set(['accept', 'accept-encoding', 'accept-language', 'cache-control', 'content-type', 'mcp-protocol-version', 'origin', 'pragma', 'referer', 'user-agent']);

/** The header's value is a credential by its name (masked whatever it holds). */
export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  if (VISIBLE_HEADERS.has(lower)) return false;
  return NAMED_SECRET_HEADERS.has(lower) || SECRET_HEADER_WORD.test(lower);
}

/** A header the user gave may carry a credential unless it is one of the plain protocol headers. */
export function mayCarryCredential(name: string): boolean {
  const lower = name.toLowerCase();
  return !PLAIN_HEADERS.has(lower) && !VISIBLE_HEADERS.has(lower);
}

const SCHEME = /^(Bearer|Basic|DPoP|Token|Digest|MAC)\s+/i;

/**
 * A value given for a header not named as a credential is looked for only when it looks like one:
 * 8 characters or more, with letters and digits. A word, a number or a date (`X-Region: eu`,
 * `X-Tenant-Id: 1234`) would otherwise be masked wherever it occurs, a JSON number with it.
 */
const looksLikeCredential = (value: string): boolean => value.length >= 8 && /[A-Za-z]/.test(value) && /\d/.test(value);

/**
 * The values of a remote server's headers that are looked for wherever they appear: those of
 * credential headers, and those of other headers (but the plain protocol ones) that look like a
 * credential. `Bearer abc` is looked for as written and as `abc`.
 */
export function headerSecretValues(headers: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!isSecretHeader(name) && !(mayCarryCredential(name) && looksLikeCredential(value))) continue;
    out.push(value);
    const scheme = SCHEME.exec(value)?.[0];
    if (scheme) out.push(value.slice(scheme.length));
  }
  return out;
}

/** `masked`: a trace or an export (README, "Trace files"); `secret`: the OAuth and Playground exchanges. */
export type MaskLabel = 'masked' | 'secret';

export function maskText(value: string, label: MaskLabel = 'secret'): string {
  return `•••• (${value.length} chars, ${label})`;
}

const MASK = /^(?:[A-Za-z]+ )?•••• \(\d+ chars, (?:masked|secret)\)$/;

/** `Bearer abc…` → `Bearer •••• (N chars, …)`: the scheme tells Basic (client auth) from Bearer. A mask stays as it is. */
export function maskCredential(value: string, label: MaskLabel = 'secret'): string {
  if (MASK.test(value)) return value;
  const scheme = SCHEME.exec(value)?.[0] ?? '';
  return `${scheme}${maskText(value.slice(scheme.length), label)}`;
}

// --- The value net --------------------------------------------------------------------------

/** Values shorter than this are not looked for: they would mask innocent text. */
export const MIN_SECRET_CHARS = 4;
/** A base64 fragment shorter than this could occur by chance. */
const MIN_BASE64_CHARS = 8;

const hexPattern = (code: number, width: number): string =>
  [...code.toString(16).padStart(width, '0')].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');

/**
 * One character as it may be written in JSON or a URL: as is, backslash-escaped (`\/`, up to three
 * levels deep), `\uXXXX`, `%XX` (once or twice encoded). Letters and digits are never escaped by
 * either. The backslash run is bounded: a peer's megabyte of backslashes must not cost a square.
 */
function charPattern(c: string): string {
  if (/[A-Za-z0-9]/.test(c) || c.length > 1) return c;
  const code = c.charCodeAt(0);
  const literal = c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  const forms = [literal, `\\\\{1,7}${literal}`, `\\\\{1,7}u${hexPattern(code, 4)}`];
  if (code < 0x80) forms.push(`%(?:25)?${hexPattern(code, 2)}`);
  return `(?:${forms.join('|')})`;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The characters of `value`'s base64 that do not depend on what surrounds it, for each of the
 * three byte offsets it can start at inside a longer encoded text (`user:KEY` in a Basic token).
 */
function base64Fragments(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  const out = new Set<string>();
  for (const [shift, skip] of [[0, 0], [1, 2], [2, 3]]) {
    const padded = new Uint8Array(shift + bytes.length);
    padded.set(bytes, shift);
    const whole = Math.floor(padded.length / 3) * 3;
    const fragment = base64(padded.subarray(0, whole)).slice(skip);
    if (fragment.length < MIN_BASE64_CHARS) continue;
    out.add(fragment);
    out.add(fragment.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...out];
}

function valuePattern(value: string): RegExp {
  const literals = [value, ...base64Fragments(value)].sort((a, b) => b.length - a.length);
  return new RegExp(literals.map((literal) => [...literal].map(charPattern).join('')).join('|'), 'g');
}

export type Scrub = (text: string) => string;

const identity: Scrub = (text) => text;

/** Replaces each value (at least MIN_SECRET_CHARS long), in every encoding above, by its mask. */
export function secretScrubber(values: readonly string[], label: MaskLabel = 'secret', minChars = MIN_SECRET_CHARS): Scrub {
  const kept = [...new Set(values.filter((v) => v.length >= minChars && !MASK.test(v)))].sort((a, b) => b.length - a.length);
  if (kept.length === 0) return identity;
  const patterns = kept.map((value) => ({ value, pattern: valuePattern(value) }));
  return (text) => {
    let out = text;
    for (const { value, pattern } of patterns) out = out.replace(pattern, () => maskText(value, label));
    return out;
  };
}

const made = new Map<string, Scrub>();

/** `secretScrubber`, kept for the last few value lists (a recorder or an export asks per event). */
export function scrubberFor(values: readonly string[], label: MaskLabel = 'secret'): Scrub {
  if (values.length === 0) return identity;
  const key = `${label}\u0000${values.join('\u0000')}`;
  let scrub = made.get(key);
  if (!scrub) {
    if (made.size >= 16) made.delete(made.keys().next().value!);
    scrub = secretScrubber(values, label);
    made.set(key, scrub);
  }
  return scrub;
}

/** `Bearer ` and the token after it, up to a space, a quote or a delimiter (a backslash escape is part of it: `\"`). */
const BEARER = /\b(Bearer\s+)((?:\\.|[^\s"'\\<>,;]){6,})/gi;

/**
 * Whatever follows `Bearer ` masked: in what a provider sends back, that is an echo of the request's
 * own header, the key whole or in part (cut short, or its start only).
 */
export function maskBearerTokens(text: string, label: MaskLabel = 'secret'): string {
  return text.replace(BEARER, (all, scheme: string, token: string) => (token.startsWith('••••') ? all : `${scheme}${maskText(token, label)}`));
}

// --- Trace events ---------------------------------------------------------------------------

/** Header values masked by name, and by value wherever one holds a secret (the whole value then). */
export function maskHeaderValues(headers: Readonly<Record<string, string>>, scrub: Scrub = identity, label: MaskLabel = 'masked'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = MASK.test(value) ? value : isSecretHeader(name) || scrub(value) !== value ? maskCredential(value, label) : value;
  }
  return out;
}

/** Every text of an event with the secrets masked; the event itself when nothing changed (frames are the hot path). */
export function maskTraceEvent(event: TraceEvent, scrub: Scrub, label: MaskLabel = 'masked'): TraceEvent {
  switch (event.kind) {
    case 'frame': {
      const raw = scrub(event.raw);
      return raw === event.raw ? event : { ...event, raw };
    }
    case 'noise':
    case 'stderr':
      return { ...event, text: scrub(event.text) };
    case 'transport':
    case 'auth':
      return { ...event, message: scrub(event.message) };
    case 'spec':
      return { ...event, issues: event.issues.map(scrub) };
    case 'http':
      return {
        ...event,
        url: scrub(event.url),
        requestHeaders: maskHeaderValues(event.requestHeaders, scrub, label),
        ...(event.responseHeaders ? { responseHeaders: maskHeaderValues(event.responseHeaders, scrub, label) } : {}),
        ...(event.error !== undefined ? { error: scrub(event.error) } : {}),
      };
    case 'intervention':
      return { ...event, message: scrub(event.message), original: scrub(event.original), ...(event.result !== undefined ? { result: scrub(event.result) } : {}) };
    case 'provider':
      return {
        ...event,
        url: scrub(event.url),
        ...(event.model !== undefined ? { model: scrub(event.model) } : {}),
        requestHeaders: maskHeaderValues(event.requestHeaders, scrub, 'secret'),
        requestBody: scrub(event.requestBody),
        responseBody: scrub(event.responseBody),
        ...(event.error !== undefined ? { error: scrub(event.error) } : {}),
      };
    case 'spans':
      return { ...event, spans: event.spans.map((span) => maskSpan(span, scrub)) };
    default:
      return event;
  }
}
