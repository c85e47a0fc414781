/**
 * The least valid string and number for a schema's keywords (issue 10; split from schema-synth.ts):
 * a sample for each format Ajv checks, a string for simple patterns, a number within its bounds
 * and step. Deterministic: a smoke test must make the same call every run.
 */

export type Obj = Record<string, unknown>;
export type Gen = { ok: true; value: unknown } | { ok: false; reason: string };
/** The longest string or array Loupe makes. */
export const MAX_LENGTH = 10_000;
export const ok = (value: unknown): Gen => ({ ok: true, value });
export const fail = (reason: string): Gen => ({ ok: false, reason });
export const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
export const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** A sample of each format Ajv checks (ajv-formats), plus rjsf's data-url and color. */
const FORMAT_SAMPLES: Record<string, string> = {
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  iri: 'https://example.com/',
  'iri-reference': 'https://example.com/',
  url: 'https://example.com/',
  'uri-template': 'https://example.com/{id}',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  'json-pointer': '/example',
  'relative-json-pointer': '0',
  regex: '.*',
  byte: 'ZXhhbXBsZQ==',
  'data-url': 'data:text/plain;base64,ZXhhbXBsZQ==',
  color: '#000000',
};

export function stringFor(s: Obj, at: string): Gen {
  const min = count(s.minLength) ?? 0;
  const max = count(s.maxLength);
  if (min > MAX_LENGTH) return fail(`${at} must be at least ${min} characters, more than Loupe makes`);
  if (max !== undefined && max < min) return fail(`${at}: its maxLength is below its minLength`);
  const base = (typeof s.format === 'string' ? FORMAT_SAMPLES[s.format] : undefined) ?? 'example';
  const fit = (text: string) => (text.length < min ? text + 'x'.repeat(min - text.length) : max !== undefined ? text.slice(0, max) : text);
  if (typeof s.pattern !== 'string') return ok(fit(base));
  let re: RegExp;
  try {
    re = new RegExp(s.pattern, 'u');
  } catch {
    return fail(`${at}: its pattern ${s.pattern} is not a regular expression Loupe can read`);
  }
  const candidates = [fit(base), sampleForPattern(s.pattern), base, '', 'a', 'A', '0', 'a'.repeat(min), '0'.repeat(min)];
  const found = candidates.find((c): c is string => c !== undefined && c.length >= min && (max === undefined || c.length <= max) && re.test(c));
  return found === undefined ? fail(`${at}: Loupe cannot make a string that matches the pattern ${s.pattern}`) : ok(found);
}

/**
 * A string for the simple patterns schemas use (`^[A-Z]{3}-\d{4}$`): literals, classes, `\d \w \s`,
 * groups (their first alternative) and quantifiers (their least count). Anything else gives up;
 * the caller tests the result against the real RegExp, so a wrong guess costs nothing.
 */
function sampleForPattern(pattern: string): string | undefined {
  if (pattern.length > 500) return undefined;
  let i = 0;
  const atom = (): string | undefined => {
    const c = pattern[i++];
    if (c === '\\') {
      const e = pattern[i++];
      return e === 'd' ? '0' : e === 'w' ? 'a' : e === 's' ? ' ' : e !== undefined && /[^A-Za-z0-9]/.test(e) ? e : undefined;
    }
    if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0 || pattern[i] === '^') return undefined;
      const first = pattern[i] === '\\' ? ({ d: '0', w: 'a', s: ' ' } as Record<string, string>)[pattern[i + 1]] ?? pattern[i + 1] : pattern[i];
      i = end + 1;
      return first;
    }
    if (c === '(') {
      if (pattern.startsWith('?:', i)) i += 2;
      const inner = sequence();
      let nest = 0;
      for (; i < pattern.length && !(pattern[i] === ')' && nest === 0); i++) nest += pattern[i] === '(' ? 1 : pattern[i] === ')' ? -1 : 0;
      i++;
      return inner;
    }
    if (c === '.') return 'a';
    return c !== undefined && !'*+?{|)'.includes(c) ? c : undefined;
  };
  const sequence = (): string | undefined => {
    let out = '';
    while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') {
      if (pattern[i] === '^' || pattern[i] === '$') {
        i++;
        continue;
      }
      const piece = atom();
      if (piece === undefined) return undefined;
      const q = /^(?:\{(\d+)(?:,\d*)?\}|[*?]|\+)/.exec(pattern.slice(i));
      const times = q === null ? 1 : q[1] !== undefined ? Math.min(Number(q[1]), MAX_LENGTH) : q[0] === '+' ? 1 : 0;
      if (q) i += q[0].length;
      if (pattern[i] === '?') i++; // a lazy quantifier
      if (out.length + piece.length * times > MAX_LENGTH) return undefined;
      out += piece.repeat(times);
    }
    return out;
  };
  return sequence();
}

export function numberFor(s: Obj, integer: boolean, at: string): Gen {
  const [min, xmin, max, xmax] = [finite(s.minimum), finite(s.exclusiveMinimum), finite(s.maximum), finite(s.exclusiveMaximum)];
  const step = finite(s.multipleOf) !== undefined && (s.multipleOf as number) > 0 ? (s.multipleOf as number) : undefined;
  const fits = (v: number) => Number.isFinite(v) && (min === undefined || v >= min) && (xmin === undefined || v > xmin) && (max === undefined || v <= max) && (xmax === undefined || v < xmax) && (!integer || Number.isInteger(v));
  const adjust = (v: number) => {
    let out = integer ? Math.ceil(v) : v;
    if (step !== undefined) out = Math.ceil(out / step) * step;
    return out;
  };
  const low = Math.max(min ?? -Infinity, xmin ?? -Infinity);
  const high = Math.min(max ?? Infinity, xmax ?? Infinity);
  // The least value first; 0 where nothing bounds it from below.
  const candidates = [min, xmin === undefined ? undefined : integer ? Math.floor(xmin) + 1 : xmin + (step ?? 1), Number.isFinite(low) && Number.isFinite(high) ? (low + high) / 2 : undefined, 0, max, xmax === undefined ? undefined : xmax - (step ?? 1)];
  for (const c of candidates) if (c !== undefined && fits(adjust(c))) return ok(adjust(c));
  return fail(`${at}: no ${integer ? 'integer' : 'number'} fits its bounds`);
}
