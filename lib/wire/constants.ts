/** The wire's numbers, apart from its schemas so that the proxy can use them without building any (quick-read.ts). */
export const WIRE_VERSION = 1;

/** How many events per session the snapshot carries (the rest comes with `subscribe`). */
export const SNAPSHOT_TAIL_EVENTS = 200;

/** The schema reference page of a protocol version (what a spec event's violation links to). */
export function schemaReferenceUrl(version: string): string {
  return `https://modelcontextprotocol.io/specification/${encodeURIComponent(version)}/schema`;
}
