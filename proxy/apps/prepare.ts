/**
 * Everything a view needs before its sandbox loads (issue 24): the tool (from the server's own
 * list: its `_meta.ui`, its visibility), the view's resource read with `resources/read` as the spec
 * requires (both requests the view's, through the session's normal path), its content checked
 * (`ui://`, the MIME type, text or base64), and its Content-Security-Policy built from what the
 * resource declared and nothing else (lib/apps/csp.ts). A failure at any step is a sentence for
 * the page, never a half-open view.
 */
import type { McpUiHostCapabilities, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import { fetchAllPages } from '../../lib/client/paged-list.ts';
import { viewContentOf, viewUriOf, type McpUiResourceCsp, type McpUiResourcePermissions } from '../../lib/apps/meta.ts';
import { allowAttribute, buildCsp, checkCsp, cspProblemText } from '../../lib/apps/csp.ts';
import type { AppOpenMessage, LoupeError } from '../../lib/wire/wire.ts';
import type { Session } from '../session/session.ts';
import { VERSION } from '../version.ts';
import type { SandboxServer } from './sandbox-server.ts';

/** A tool as the server listed it. */
export type Tool = Record<string, unknown> & { name: string };

export interface PreparedView {
  id: string;
  tool: Tool;
  uri: string;
  html: string;
  /** The policy the view runs under, and what was declared of it that Loupe kept (sent in `sandbox-resource-ready`). */
  csp: string;
  declaredCsp: McpUiResourceCsp | undefined;
  cspProblems: string[];
  permissions: McpUiResourcePermissions;
  allow: string;
  prefersBorder?: boolean;
  sandboxUrl: string;
  sandboxOrigin: string;
  arguments: Record<string, unknown>;
  result: unknown;
  context: McpUiHostContext;
  capabilities: McpUiHostCapabilities;
  /** The server's tool of this name (its list fetched again when the name is not in it). */
  toolNamed: (name: string) => Promise<Tool | undefined>;
}

/** The tools of the session, every page, as the view's requests. */
async function listTools(session: Session, id: string): Promise<Tool[] | LoupeError> {
  let failure: LoupeError | undefined;
  let page = 0;
  const paged = await fetchAllPages(async (cursor) => {
    const outcome = await session.request(`${id}-list-${++page}`, 'tools/list', cursor === undefined ? undefined : { cursor }, { byView: id });
    if (!outcome.ok) failure = { code: 'VIEW', message: `The server’s tools/list failed: ${outcome.error.message}` };
    return outcome;
  }, 'tools');
  if (failure) return failure;
  return paged.items.filter((t): t is Tool => t !== null && typeof t === 'object' && typeof (t as { name?: unknown }).name === 'string');
}

/** The result the page named by its frame, read from the session's trace (it does not cross the socket again). */
function resultOf(session: Session, message: AppOpenMessage): unknown {
  if (message.resultSeq === undefined) return message.result;
  const event = session.trace.all().find((e) => e.seq === message.resultSeq);
  if (event?.kind !== 'frame') return message.result;
  try {
    return (JSON.parse(event.raw) as { result?: unknown }).result ?? message.result;
  } catch {
    return message.result;
  }
}

function fail(message: string): LoupeError {
  return { code: 'VIEW', message };
}

export async function prepareView(session: Session, message: AppOpenMessage, id: string, sandbox: SandboxServer): Promise<PreparedView | LoupeError> {
  const listed = await listTools(session, id);
  if (!Array.isArray(listed)) return listed;
  let tools: Tool[] = listed;
  const tool = tools.find((t) => t.name === message.tool);
  if (!tool) return fail(`The server lists no tool named “${message.tool}” now.`);
  const link = viewUriOf(tool);
  if (!link || !link.ok) return fail(link ? link.problem : `The tool “${tool.name}” names no view (_meta.ui.resourceUri).`);
  const read = await session.request(`${id}-read`, 'resources/read', { uri: link.uri }, { byView: id });
  if (!read.ok) return fail(`Could not read the view ${link.uri}: ${read.error.message}`);
  const read_ = viewContentOf(read.result, link.uri);
  if (!read_.ok) return fail(read_.problem);
  const content = read_.view;
  const checked = checkCsp(content.csp);
  const allow = allowAttribute(content.permissions);
  const csp = buildCsp(checked);
  const urls = sandbox.add({ id, hostOrigin: message.hostOrigin, html: content.html, csp, allow });
  return {
    id,
    tool,
    uri: link.uri,
    html: content.html,
    csp,
    declaredCsp: checked.ok,
    cspProblems: checked.problems.map(cspProblemText),
    permissions: content.permissions,
    allow,
    prefersBorder: content.prefersBorder,
    sandboxUrl: urls.sandboxUrl,
    sandboxOrigin: urls.origin,
    arguments: message.arguments ?? {},
    result: resultOf(session, message),
    context: {
      toolInfo: { ...(message.toolCallId !== undefined ? { id: message.toolCallId } : {}), tool: tool as never },
      theme: 'light',
      displayMode: 'inline',
      availableDisplayModes: ['inline', 'fullscreen', 'pip'],
      locale: 'en-US',
      timeZone: 'UTC',
      userAgent: `mcp-loupe/${VERSION}`,
      platform: 'web',
      deviceCapabilities: { touch: false, hover: true },
      safeAreaInsets: { top: 0, right: 0, bottom: 0, left: 0 },
      ...(message.context ?? {}),
    } as McpUiHostContext,
    capabilities: {
      openLinks: {},
      // Draft: the user approves, then saves each file (proxy/apps/view-host.ts).
      downloadFile: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      message: { text: {} },
      updateModelContext: { text: {}, structuredContent: {} },
      sandbox: { ...(checked.ok ? { csp: checked.ok } : {}), permissions: content.permissions },
    } as McpUiHostCapabilities,
    toolNamed: async (name) => {
      let found = tools.find((t) => t.name === name);
      if (found) return found;
      const again = await listTools(session, id);
      if (Array.isArray(again)) tools = again;
      found = tools.find((t) => t.name === name);
      return found;
    },
  };
}
