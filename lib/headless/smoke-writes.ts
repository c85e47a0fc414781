/**
 * Which tools `--smoke` calls unasked (issue 21, item 8). Smoke calls each tool with made-up
 * arguments, so by default it calls only a tool that says it changes nothing: `readOnlyHint:
 * true`. The spec's defaults for a missing hint are `readOnlyHint: false` and `destructiveHint:
 * true`, so a tool without annotations may change data, destructively; `destructiveHint: false`
 * still means it may add or change things. `--allow-writes` calls them all. The hints are the
 * server's word, which smoke takes: it is the user's own server under test.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/schema#toolannotations
 */
import type { ToolHints } from '../schema/tool-schema.ts';

/** The flag that makes smoke call the tools that may change data too. */
export const ALLOW_WRITES_FLAG = '--allow-writes';

/** Why smoke leaves this tool alone unless told otherwise, in words; undefined for a read-only tool. */
export function mayChangeData(hints: ToolHints): string | undefined {
  if (hints.readOnlyHint === true) return undefined;
  const why = hints.readOnlyHint === false ? 'it says it may change data (readOnlyHint: false)' : 'it does not say it is read-only (no readOnlyHint: true), so by the MCP spec it may change data';
  const how = hints.destructiveHint === false ? ', though not destructively' : hints.destructiveHint === true ? ', destructively (destructiveHint: true)' : ', perhaps destructively';
  return `Not called: ${why}${how}. ${ALLOW_WRITES_FLAG} calls it too.`;
}
