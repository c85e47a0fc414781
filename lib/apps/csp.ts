/**
 * A view's Content-Security-Policy (issue 24), built from its `_meta.ui.csp` exactly as the MCP Apps
 * spec says ("CSP Construction from Metadata"; the restrictive default when nothing is declared),
 * with nothing the server did not declare. Each declared domain must be a plain origin — scheme
 * http, https, ws or wss, a host (which may start with `*.`), an optional port — so that no entry
 * can widen the policy or smuggle in a directive (`https://a.com; script-src *`): anything else is
 * dropped and named, as malformed or as too wide. Pure and isomorphic.
 *
 * Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
 * (Content Requirements → Host Behavior; Security Implications → Content Security Policy Enforcement).
 * Source grammar: https://www.w3.org/TR/CSP3/#grammardef-host-source
 */
import { permissionsOf } from './meta.ts';

export const CSP_FIELDS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
export type CspField = (typeof CSP_FIELDS)[number];
/** The declared origins kept, per field, normalised (scheme and host in lower case, no trailing slash). */
export type SourceList = Record<CspField, string[]>;

export interface CspProblem {
  /** The field the entry was in; `csp` for the declaration as a whole or a field Loupe does not know. */
  field: CspField | 'csp';
  /** The entry as sent (JSON for what is not a string), cut at 120 characters. */
  entry: string;
  /** `too-wide`: a real source that allows far too much; `ignored`: a field the spec does not define, or past the cap. */
  kind: 'malformed' | 'too-wide' | 'ignored';
  /** Why, in words: "contains a semicolon, which would start another directive". */
  why: string;
}

/** `ok` is undefined when no CSP was declared (or none that could be read): the restrictive default applies. */
export interface CheckedCsp {
  ok: SourceList | undefined;
  problems: CspProblem[];
}

/** The spec's restrictive default, for a view that declares no CSP (note `connect-src 'none'`). */
export const RESTRICTIVE_CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

/** Entries read per field: a declaration is a handful of origins, not a list to grow without end. */
export const MAX_ENTRIES = 64;
const MAX_ENTRY_CHARS = 512;
const SCHEMES = ['http', 'https', 'ws', 'wss'];

type Verdict = { source: string } | { kind: 'malformed' | 'too-wide'; why: string };
const malformed = (why: string): Verdict => ({ kind: 'malformed', why });
const tooWide = (why: string): Verdict => ({ kind: 'too-wide', why });
const shown = (value: unknown): string => {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
};
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a character that cannot be in an origin would do in a policy, in words. */
function forbiddenCharacter(entry: string): string | undefined {
  const c = /[\s;,'"\\]/.exec(entry)?.[0];
  if (c === undefined) return /[^\x21-\x7e]/.test(entry) ? 'contains a character outside printable ASCII (write an international host name in punycode)' : undefined;
  if (c === ';') return 'contains a semicolon, which would start another directive';
  if (c === ',') return 'contains a comma, which would start another policy';
  if (c === "'" || c === '"') return 'contains a quote';
  if (c === '\\') return 'contains a backslash';
  return 'contains whitespace, which would add another source';
}

/** One declared entry: the source it stands for, or why it is dropped. */
export function checkSource(entry: unknown): Verdict {
  if (typeof entry !== 'string') return malformed(`is ${entry === null ? 'null' : typeof entry}, not a string`);
  if (entry.length > MAX_ENTRY_CHARS) return malformed(`is longer than ${MAX_ENTRY_CHARS} characters`);
  if (/^'[^']*'$/.test(entry)) return malformed('is a CSP keyword, not an origin');
  const character = forbiddenCharacter(entry);
  if (character !== undefined) return malformed(character);
  if (entry === '*') return tooWide('allows every host');
  const schemeOnly = /^([a-z][a-z0-9+.-]*):$/i.exec(entry);
  if (schemeOnly) {
    const scheme = schemeOnly[1].toLowerCase();
    return SCHEMES.includes(scheme) ? tooWide(`allows every host over ${scheme}`) : malformed(`is the scheme ${scheme}: alone, not an origin`);
  }
  if (!entry.includes('://')) {
    // `localhost:3000` is a host and a port; `javascript:x` is a URL of another kind.
    return /^[a-z][a-z0-9+.-]*:(?!\d+$|\*$)/i.test(entry) ? malformed('is a URL of another kind, not an origin') : malformed(`has no scheme (write https://${entry} or wss://…)`);
  }
  const parts = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(\/[^?#]*)?([?#].*)?$/i.exec(entry);
  if (!parts) return malformed('is not scheme://host[:port]');
  const [, rawScheme, authority, path, query] = parts;
  const scheme = rawScheme.toLowerCase();
  if (!SCHEMES.includes(scheme)) return malformed(`has the scheme ${scheme}, but only http, https, ws and wss origins are allowed`);
  if (query !== undefined) return malformed('has a query or fragment, but a declared domain is an origin');
  if (path !== undefined && path !== '/') return malformed(`has a path (${path}), but a declared domain is an origin`);
  return checkAuthority(scheme, authority);
}

/** `host[:port]` of an entry whose scheme is fine. */
function checkAuthority(scheme: string, authority: string): Verdict {
  if (authority.includes('@')) return malformed('has user information before the host');
  if (authority.startsWith('[')) return malformed('is an IPv6 address, which a CSP source cannot name');
  const hostPort = /^([^:]*)(?::(\d{1,5}|\*))?$/.exec(authority);
  if (!hostPort) return malformed('has a port that is not a number');
  const [, rawHost, port] = hostPort;
  if (port !== undefined && port !== '*' && (Number(port) < 1 || Number(port) > 65535)) return malformed(`has the port ${port}, outside 1–65535`);
  const host = rawHost.toLowerCase();
  if (host === '*') return tooWide(`allows every host over ${scheme}`);
  if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(host)) return malformed(host === '' ? 'has no host' : `has the host ${host}, which is not a host name (letters, digits, "-" and dots, optionally after "*.")`);
  if (host.startsWith('*.') && !host.slice(2).includes('.')) return tooWide(`allows every host under .${host.slice(2)}`);
  return { source: `${scheme}://${host}${port === undefined ? '' : `:${port}`}` };
}

/** One field's entries: the sources kept (each once), the problems of the rest. */
function checkField(field: CspField, value: unknown, problems: CspProblem[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push({ field, entry: shown(value), kind: 'malformed', why: 'is not an array of origins' });
    return [];
  }
  const kept: string[] = [];
  for (const entry of value.slice(0, MAX_ENTRIES)) {
    const verdict = checkSource(entry);
    if ('source' in verdict) {
      if (!kept.includes(verdict.source)) kept.push(verdict.source);
    } else problems.push({ field, entry: shown(entry), ...verdict });
  }
  if (value.length > MAX_ENTRIES) problems.push({ field, entry: `${value.length - MAX_ENTRIES} more`, kind: 'ignored', why: `only the first ${MAX_ENTRIES} entries are read` });
  return kept;
}

/** A declared `_meta.ui.csp` checked: what may go into the policy, and what may not and why. */
export function checkCsp(csp: unknown): CheckedCsp {
  if (csp === undefined || csp === null) return { ok: undefined, problems: [] };
  if (!isRecord(csp)) return { ok: undefined, problems: [{ field: 'csp', entry: shown(csp), kind: 'malformed', why: 'is not an object, so the restrictive default applies' }] };
  const problems: CspProblem[] = [];
  const ok = {} as SourceList;
  for (const field of CSP_FIELDS) ok[field] = checkField(field, csp[field], problems);
  for (const key of Object.keys(csp)) {
    if (!(CSP_FIELDS as readonly string[]).includes(key)) problems.push({ field: 'csp', entry: shown(key), kind: 'ignored', why: 'is not a field the spec defines for a CSP declaration' });
  }
  return { ok, problems };
}

/**
 * The policy, one header value: the spec's template with the declared origins (each checked again
 * here, so that a hand-made SourceList cannot inject either), or the restrictive default.
 */
export function buildCsp(checked: Pick<CheckedCsp, 'ok'>): string {
  if (checked.ok === undefined) return RESTRICTIVE_CSP;
  const clean = (sources: readonly string[] | undefined): string[] => (sources ?? []).filter((s) => {
    const verdict = checkSource(s);
    return 'source' in verdict && verdict.source === s;
  });
  const [connect, resource, frame, base] = CSP_FIELDS.map((field) => clean(checked.ok?.[field]));
  const directive = (name: string, fixed: string[], declared: string[], none?: string) => {
    const sources = [...fixed, ...declared];
    return `${name} ${sources.length > 0 ? sources.join(' ') : none}`;
  };
  return [
    "default-src 'none'",
    directive('script-src', ["'self'", "'unsafe-inline'"], resource),
    directive('style-src', ["'self'", "'unsafe-inline'"], resource),
    directive('connect-src', ["'self'"], connect),
    directive('img-src', ["'self'", 'data:'], resource),
    directive('font-src', ["'self'"], resource),
    directive('media-src', ["'self'", 'data:'], resource),
    directive('frame-src', [], frame, "'none'"),
    "object-src 'none'",
    directive('base-uri', [], base, "'self'"),
  ].join('; ');
}

/**
 * The iframe `allow` attribute for the permissions a view asks for, in the spec's order. Joined
 * by "; " as the attribute's grammar (a serialized permissions policy) and the SDK's
 * buildAllowAttribute do; the spec's sketch joins with a space, which would read the second
 * feature as an origin of the first.
 */
export function allowAttribute(permissions: unknown): string {
  const asked = permissionsOf(permissions);
  const features: string[] = [];
  if (asked.camera) features.push('camera');
  if (asked.microphone) features.push('microphone');
  if (asked.geolocation) features.push('geolocation');
  if (asked.clipboardWrite) features.push('clipboard-write');
  return features.join('; ');
}

/** A problem as a phrase naming the entry: `resourceDomains "*" allows every host`. */
export function cspProblemText(problem: CspProblem): string {
  return problem.field === 'csp' ? `${JSON.stringify(problem.entry)} ${problem.why}` : `${problem.field} ${JSON.stringify(problem.entry)} ${problem.why}`;
}
