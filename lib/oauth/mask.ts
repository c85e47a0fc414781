/**
 * Masking for what the guided OAuth flow shows of its HTTP exchanges (issue 11): tokens, client
 * secrets, authorization codes and PKCE verifiers never reach the page, the trace or an export.
 * A masked value says how long it was (`•••• (43 chars, secret)`), which is often what a person
 * debugging a flow needs ("was a token sent at all?"), and nothing else of it.
 *
 * Pure string functions, shared by the proxy (which masks at the source) and anything that
 * exports. The rules: secret-like header names (lib/trace/secret-mask.ts, the rule for every trace;
 * Authorization keeps its scheme), the OAuth fields of form and JSON bodies, and the same fields in
 * URLs (a `Location` header carries the code).
 */
import { isSecretHeader, maskCredential, maskText, scrubberFor } from '../trace/secret-mask.ts';

/** Form and JSON fields whose values are secret (RFC 6749, RFC 7523, RFC 7591, RFC 7636, OIDC). */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'client_secret',
  'code',
  'code_verifier',
  'refresh_token',
  'access_token',
  'id_token',
  'client_assertion',
  'assertion',
  'password',
  'registration_access_token',
  'subject_token',
  'actor_token',
]);

/** Headers that may carry a URL with a code or token in its query or fragment. */
const URL_HEADERS: ReadonlySet<string> = new Set(['location', 'content-location', 'refresh']);

/** Beyond this, a body is masked by pattern only (parsing megabytes for a view is not worth it). */
const PARSE_LIMIT = 1024 * 1024;

export function maskSecret(value: string): string {
  return maskText(value, 'secret');
}

/** Which headers are credentials is the one rule of lib/trace/secret-mask.ts. */
export { isSecretHeader };

/**
 * Headers as the exchange view shows them: names lower-cased, secret values masked. `secretNames`
 * adds headers the user marked secret in the server's config (issue 9), whatever they are called.
 */
export function maskHeaders(headers: Iterable<[string, string]> | Record<string, string>, secretNames: readonly string[] = []): Record<string, string> {
  const extra = new Set(secretNames.map((n) => n.toLowerCase()));
  const entries = Symbol.iterator in headers ? [...(headers as Iterable<[string, string]>)] : Object.entries(headers);
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (isSecretHeader(lower) || extra.has(lower)) out[lower] = maskCredential(value);
    else if (URL_HEADERS.has(lower)) out[lower] = maskUrl(value);
    else out[lower] = value;
  }
  return out;
}

function decodeFormPart(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/**
 * `a=1&client_secret=xyz` → `a=1&client_secret=•••• (3 chars, secret)`. The other pairs stay as
 * written (order, encoding), so the view shows what was sent; the length is of the decoded value.
 */
export function maskForm(text: string): string {
  return text
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      if (at < 0) return pair;
      const key = decodeFormPart(pair.slice(0, at));
      return SECRET_FIELDS.has(key) ? `${pair.slice(0, at)}=${maskSecret(decodeFormPart(pair.slice(at + 1)))}` : pair;
    })
    .join('&');
}

/** A URL with the secret fields of its query and fragment masked (an implicit-style fragment carries a token). */
export function maskUrl(url: string): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt < 0 ? url : url.slice(0, hashAt);
  const fragment = hashAt < 0 ? undefined : url.slice(hashAt + 1);
  const queryAt = beforeHash.indexOf('?');
  const base = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
  const query = queryAt < 0 ? undefined : beforeHash.slice(queryAt + 1);
  return `${base}${query === undefined ? '' : `?${maskForm(query)}`}${fragment === undefined ? '' : `#${maskForm(fragment)}`}`;
}

/** Masks secret fields at any depth; `changed` tells whether anything was. Only string values: a JSON-RPC error's numeric `code` is not a secret. */
function maskJsonValue(value: unknown, found: { changed: boolean }): unknown {
  if (Array.isArray(value)) return value.map((item) => maskJsonValue(item, found));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_FIELDS.has(key) && typeof item === 'string') {
      out[key] = maskSecret(item);
      found.changed = true;
    } else out[key] = maskJsonValue(item, found);
  }
  return out;
}

/** JSON text with its secret fields masked; the text itself when it had none (it stays exactly as sent). */
export function maskJson(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const found = { changed: false };
  const masked = maskJsonValue(parsed, found);
  if (!found.changed) return text;
  return JSON.stringify(masked, null, text.includes('\n') ? 2 : undefined);
}

const FIELD_ALTERNATION = [...SECRET_FIELDS].sort((a, b) => b.length - a.length).join('|');
const JSON_PAIR = new RegExp(`("(?:${FIELD_ALTERNATION})"\\s*:\\s*)"((?:[^"\\\\]|\\\\.)*)"?`, 'g');
const FORM_PAIR = new RegExp(`(^|[?&#\\s;,"'])(${FIELD_ALTERNATION})=([^&#\\s"'<>]*)`, 'g');

/**
 * For text that does not parse (a body cut short, HTML with a link, an event stream): the same
 * fields wherever they appear as `"field": "value"` or `field=value`.
 */
export function maskByPattern(text: string): string {
  return text
    .replace(JSON_PAIR, (_all, head: string, value: string) => `${head}"${maskSecret(value)}"`)
    .replace(FORM_PAIR, (_all, lead: string, key: string, value: string) => `${lead}${key}=${maskSecret(decodeFormPart(value))}`);
}

/** A body as the exchange view shows it: by its content type when that says, else by what it looks like. */
export function maskBody(text: string, contentType = ''): string {
  const type = contentType.toLowerCase();
  if (text.length <= PARSE_LIMIT) {
    if (type.includes('application/x-www-form-urlencoded')) return maskForm(text);
    const trimmed = text.trimStart();
    if (type.includes('json') || trimmed.startsWith('{') || trimmed.startsWith('[')) {
      const masked = maskJson(text);
      if (masked !== undefined) return masked;
    }
  }
  return maskByPattern(text);
}

/**
 * Every occurrence of values known to be secret (the flow's own token, code, verifier, client
 * secret), wherever a server echoed them: the rules above go by names, this by value.
 */
export function maskValues(text: string, secrets: readonly string[]): string {
  // Short values would mask innocent text; real secrets are long.
  return scrubberFor(secrets.filter((secret) => secret.length >= 8), 'secret')(text);
}

/** The start of a long text, saying how much was left out. */
export function boundText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters not shown)`;
}
