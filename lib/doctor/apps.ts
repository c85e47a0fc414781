/**
 * The doctor's MCP Apps checks (issue 24): what a host trips over in a server's views, found from
 * its tools, its resource list and each linked view as `resources/read` gave it — a link that is
 * not `ui://` or uses the deprecated flat key, a view that cannot be read or has the wrong MIME
 * type, a view the list does not name, CSP declarations too wide or malformed, an app-only tool no
 * view could call — and, from a session's trace, views that talk before they initialize or never
 * do. Pure: the proxy fetches (proxy/engine/doctor.ts) and passes the trace.
 *
 * Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
 */
import type { DoctorInput, Finding, FindingSource, FindingSubject, Severity } from '../model/doctor.ts';
import type { FrameEvent, TraceEvent } from '../wire/events.ts';
import { checkCsp, cspProblemText, type CspProblem } from '../apps/csp.ts';
import { FLAT_URI_KEY, viewContentOf, viewUriOf, visibilityOf, type ViewLink } from '../apps/meta.ts';

const SPEC = 'https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx';
const spec = (anchor: string, label: string): FindingSource => ({ label: `MCP Apps 2026-01-26: ${label}`, url: `${SPEC}#${anchor}` });
const SOURCES = {
  discovery: spec('resource-discovery', 'resource discovery'),
  content: spec('content-requirements', 'UI resource content'),
  visibility: spec('visibility', 'tool visibility'),
  csp: spec('4-content-security-policy-enforcement', 'Content Security Policy'),
  lifecycle: spec('lifecycle', 'lifecycle'),
  sandbox: spec('sandbox-proxy', 'sandbox proxy'),
} satisfies Record<string, FindingSource>;

type Item = Record<string, unknown>;
const isRecord = (v: unknown): v is Item => typeof v === 'object' && v !== null && !Array.isArray(v);
const q = (s: string): string => JSON.stringify(s.length > 80 ? `${s.slice(0, 77)}…` : s);
const listWords = (words: string[]): string => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);
const make = (severity: Severity, about: FindingSubject, rule: string, message: string, fix: string, source: FindingSource): Finding => ({ severity, about, rule, message, fix, source });
const toolSubject = (name: string): FindingSubject => ({ kind: 'tool', name });
const viewSubject = (uri: string): FindingSubject => ({ kind: 'resource', name: uri });
const nameOf = (tool: Item): string => (typeof tool.name === 'string' ? tool.name : '(unnamed)');

/** Every view rule over what was fetched of one server. */
export function appFindings(input: DoctorInput): Finding[] {
  const tools = (input.lists.tools?.items ?? []).filter(isRecord);
  const linkedBy = new Map<string, string[]>();
  const out: Finding[] = [];
  for (const tool of tools) {
    const link = viewUriOf(tool);
    out.push(...linkFindings(nameOf(tool), link), ...visibilityFindings(tool));
    if (link?.ok) linkedBy.set(link.uri, [...(linkedBy.get(link.uri) ?? []), nameOf(tool)]);
  }
  if (linkedBy.size === 0) out.push(...unreachableFindings(tools));
  for (const [uri, names] of linkedBy) out.push(...listingFindings(uri, names, input), ...viewFindings(uri, names, input));
  return out;
}

// ---- a tool's link and visibility ---------------------------------------------------------------

function linkFindings(name: string, link: ViewLink | undefined): Finding[] {
  if (link === undefined) return [];
  const about = toolSubject(name);
  const key = link.deprecated ? `_meta[${q(FLAT_URI_KEY)}]` : '_meta.ui.resourceUri';
  if (!link.ok) {
    return [make('error', about, 'app-view-uri-scheme', `Tool ${q(name)} links the view ${link.value} in ${key}, which ${link.problem}, so hosts cannot render it.`, 'Serve the view as a ui:// resource of type text/html;profile=mcp-app and put that URI in _meta.ui.resourceUri.', SOURCES.discovery)];
  }
  const out: Finding[] = [];
  if (link.deprecated) {
    out.push(make('warning', about, 'app-view-uri-deprecated', `Tool ${q(name)} names its view ${link.uri} only in the deprecated ${key}, which the spec will remove.`, `Put the URI in _meta.ui.resourceUri (registerAppTool also writes the flat key for older hosts).`, SOURCES.discovery));
  }
  if (link.conflicting !== undefined) {
    out.push(make('warning', about, 'app-view-uri-conflict', `Tool ${q(name)} links ${link.uri} in _meta.ui.resourceUri but ${link.conflicting} in the deprecated _meta[${q(FLAT_URI_KEY)}], so older hosts show another view.`, 'Give both keys the same URI, or drop the flat one.', SOURCES.discovery));
  }
  return out;
}

function visibilityFindings(tool: Item): Finding[] {
  const { problem } = visibilityOf(tool);
  if (problem === undefined) return [];
  return [make('warning', toolSubject(nameOf(tool)), 'app-visibility-malformed', `Tool ${q(nameOf(tool))} has a malformed _meta.ui: its ${problem}.`, 'Set _meta.ui.visibility to ["model"], ["app"] or ["model", "app"].', SOURCES.visibility)];
}

/** App-only tools on a server where no tool links a view: no view exists to call them. */
function unreachableFindings(tools: Item[]): Finding[] {
  return tools.filter((tool) => visibilityOf(tool).visibility.join() === 'app').map((tool) =>
    make('info', toolSubject(nameOf(tool)), 'app-only-tool-unreachable', `Tool ${q(nameOf(tool))} may be called by views only (visibility ["app"]), but no tool of this server links a view, so nothing can call it.`, `Link a view from a tool (that view may then call ${q(nameOf(tool))}), or add "model" to its visibility.`, SOURCES.visibility));
}

// ---- a linked view ------------------------------------------------------------------------------

const linkedText = (names: string[]): string => `linked by tool${names.length > 1 ? 's' : ''} ${listWords(names.map(q))}`;

/** A linked view that resources/list does not name (only when the whole list was read, and the view could be). */
function listingFindings(uri: string, names: string[], input: DoctorInput): Finding[] {
  const list = input.lists.resources;
  if (list === undefined || list.error !== undefined || list.stopped !== undefined || input.views?.[uri]?.error !== undefined) return [];
  if (list.items.some((r) => isRecord(r) && r.uri === uri)) return [];
  return [make('info', viewSubject(uri), 'app-view-unlisted', `The view ${uri}, ${linkedText(names)}, is not in resources/list; the spec allows that, but hosts that review views when they connect do not see it.`, 'List the view in resources/list (registerAppResource does) so that hosts can review it before a tool runs.', SOURCES.discovery)];
}

/** What resources/read gave for a linked view: readable, of the right type, with a CSP that can be kept. */
function viewFindings(uri: string, names: string[], input: DoctorInput): Finding[] {
  const fetched = input.views?.[uri];
  if (fetched === undefined) return [];
  const about = viewSubject(uri);
  if (fetched.error !== undefined) {
    return [make('error', about, 'app-view-missing', `The view ${uri}, ${linkedText(names)}, cannot be read: resources/read failed: ${fetched.error.message.replace(/\.$/, '')}.`, `Serve ${uri} as a resource (registerAppResource), or link a view the server has.`, SOURCES.discovery)];
  }
  const listed = input.lists.resources?.items.find((r) => isRecord(r) && r.uri === uri);
  const content = viewContentOf(fetched.result, uri, listed);
  if (!content.ok && content.code === 'WRONG_MIME') {
    return [make('error', about, 'app-view-mime', `${content.problem}, so hosts do not render it as the view ${linkedText(names)}.`, 'Answer resources/read with mimeType "text/html;profile=mcp-app" (registerAppResource sets it).', SOURCES.content)];
  }
  if (!content.ok) {
    return [make('error', about, 'app-view-content', `${content.problem}, so the view ${linkedText(names)} cannot be shown.`, `Answer resources/read of ${uri} with one content item for that URI holding the HTML document in text (or base64 in blob).`, SOURCES.content)];
  }
  return cspFindings(uri, checkCsp(content.view.csp).problems);
}

function cspFindings(uri: string, problems: CspProblem[]): Finding[] {
  const out: Finding[] = [];
  const wide = problems.filter((p) => p.kind === 'too-wide');
  const bad = problems.filter((p) => p.kind !== 'too-wide');
  if (wide.length > 0) {
    out.push(make('warning', viewSubject(uri), 'app-csp-too-wide', `The view ${uri} declares CSP sources that are too wide: ${wide.map(cspProblemText).join('; ')}. Loupe leaves them out of the view's policy.`, 'Declare each origin the view needs, such as https://api.example.com or https://*.example.com.', SOURCES.csp));
  }
  if (bad.length > 0) {
    out.push(make('warning', viewSubject(uri), 'app-csp-malformed', `The view ${uri} declares CSP entries that are not origins: ${bad.map(cspProblemText).join('; ')}. Loupe leaves them out of the view's policy.`, 'Write each entry as one origin, scheme://host[:port] (http, https, ws or wss; the host may start with "*."), with no path, in connectDomains, resourceDomains, frameDomains or baseUriDomains.', SOURCES.csp));
  }
  return out;
}

// ---- a session's view frames --------------------------------------------------------------------

/** What one view's frames showed, in order. */
interface ViewTrack {
  init?: FrameEvent;
  initAnswered: boolean;
  /** The first request other than ui/initialize and ping sent before the host answered ui/initialize. */
  early?: { frame: FrameEvent; beforeInit: boolean };
  earlyCount: number;
  resourceReady?: FrameEvent;
}

function follow(track: ViewTrack, frame: FrameEvent): void {
  if (frame.dir === 'out') {
    if (frame.method === 'ui/notifications/sandbox-resource-ready') track.resourceReady ??= frame;
    const answer = frame.rpc === 'response' || frame.rpc === 'error';
    if (answer && track.init !== undefined && frame.id === track.init.id) track.initAnswered = true;
    return;
  }
  if (frame.rpc !== 'request' || frame.id === undefined) return;
  if (frame.method === 'ui/initialize' && track.init === undefined) {
    track.init = frame;
    return;
  }
  // As in MCP's own lifecycle, a ping may come before the handshake is done.
  if (track.initAnswered || frame.method === 'ping') return;
  track.early ??= { frame, beforeInit: track.init === undefined };
  track.earlyCount += 1;
}

/**
 * The lifecycle of each view in a trace (frames with `view` set; `in` is view→host): a request
 * before `ui/initialize` or before the host answered it, and a view that was given its HTML
 * (`ui/notifications/sandbox-resource-ready`) and never sent `ui/initialize` — to be asked once a
 * view has had time to load. `names`: words for a view id (its URI or tool), when the caller knows them.
 */
export function viewFrameFindings(events: readonly TraceEvent[], names: Readonly<Record<string, string>> = {}): Finding[] {
  const tracks = new Map<string, ViewTrack>();
  for (const event of events) {
    if (event.kind !== 'frame' || event.view === undefined) continue;
    let track = tracks.get(event.view);
    if (!track) tracks.set(event.view, (track = { initAnswered: false, earlyCount: 0 }));
    follow(track, event);
  }
  const out: Finding[] = [];
  for (const [view, track] of tracks) {
    const label = names[view] === undefined ? `View ${view}` : `View ${view} (${names[view]})`;
    if (track.early) {
      const { frame, beforeInit } = track.early;
      const more = track.earlyCount > 1 ? `, and ${track.earlyCount - 1} more request${track.earlyCount > 2 ? 's' : ''} after it,` : '';
      const when = beforeInit ? 'before sending ui/initialize' : `before the host answered its ui/initialize (#${track.init?.seq})`;
      out.push(make('warning', { kind: 'frame', seq: frame.seq, ...(frame.method === undefined ? {} : { method: frame.method }) }, 'app-view-early-request', `${label} sent ${frame.method ?? 'a request'} #${frame.seq}${more} ${when}.`, 'Send ui/initialize first and wait for its answer (App.connect() does) before any other request.', SOURCES.lifecycle));
    }
    if (track.init === undefined && track.resourceReady) {
      const ready = track.resourceReady;
      out.push(make('warning', { kind: 'frame', seq: ready.seq, method: 'ui/notifications/sandbox-resource-ready' }, 'app-view-never-initialized', `${label} was given its HTML (ui/notifications/sandbox-resource-ready #${ready.seq}) but never sent ui/initialize, so the host cannot send it the tool input or result.`, 'Call app.connect() (or send ui/initialize) as soon as the view loads.', SOURCES.sandbox));
    }
  }
  return out;
}
