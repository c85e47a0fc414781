/**
 * Variables Loupe adds to the environment of the stdio servers it starts, under the server's own
 * config (issue 28: `OTEL_EXPORTER_OTLP_ENDPOINT` and the receiver's token in
 * `OTEL_EXPORTER_OTLP_HEADERS`, so that an instrumented server exports its spans to Loupe). In the
 * child's environment only: never on a command line (readable by every user), never in the
 * session's config (which the page shows). One provider per process, set by the launch that turns
 * tracing on; the upstream knows nothing of what the variables mean.
 */
export type ChildEnvProvider = (configured: Readonly<Record<string, string>> | undefined) => Record<string, string>;

let provider: ChildEnvProvider | undefined;

/** Sets (or, with undefined, clears) the provider; returns the one it replaced. */
export function setChildEnv(next: ChildEnvProvider | undefined): ChildEnvProvider | undefined {
  const previous = provider;
  provider = next;
  return previous;
}

/** What to add for a server configured with `configured` (its env as written). */
export function childEnvFor(configured: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return provider ? provider(configured) : {};
}
