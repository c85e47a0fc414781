/**
 * Authorization server issuers compared as RFC 8414 §3.3 asks, exactly, forgiving one trailing
 * `/` as the SDK does when it binds credentials to an issuer (issue 11: shared by the provider's
 * check and the guided flow's).
 */
export function sameIssuer(a: string, b: string): boolean {
  const norm = (s: string) => {
    try {
      return new URL(s).href.replace(/\/$/, '');
    } catch {
      return s.replace(/\/$/, '');
    }
  };
  return norm(a) === norm(b);
}
