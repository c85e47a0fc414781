/**
 * Loupe as the host of one MCP Apps view (issue 24). The host's half of the conversation is the
 * ext-apps SDK's `AppBridge` (loaded with the first view: a Loupe that never shows one never holds
 * it), connected to the view through a `ViewChannel` (every message a frame of the session's trace,
 * with the view's id). What the view asks of the server takes the session's normal path
 * (`session.request`: rules, breakpoints, the spec validator, the trace), its frames marked as the
 * view's (`byView`); what it asks of the host is answered here and listed for the page (`asks`).
 *
 * A `tools/call` for a tool whose `_meta.ui.visibility` leaves out `"app"` is refused, as the spec
 * requires, before it reaches the server: the refusal is the view's answer and a line in the list.
 */
import type { AppBridge, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { AppViewState, DisplayMode, HostContextPatch, ViewAsk } from '../../lib/wire/apps.ts';
import { appMayCall, visibilityOf } from '../../lib/apps/meta.ts';
import { contentOf, contentSize, describeFiles, filesToDownload, MAX_DOWNLOAD_BYTES, type DownloadedFile, type DownloadRequest } from '../../lib/apps/download.ts';
import type { Session } from '../session/session.ts';
import { VERSION } from '../version.ts';
import { ViewChannel } from './view-channel.ts';
import type { CspViolation } from './sandbox-server.ts';
import type { PreparedView } from './prepare.ts';

let bridgeModule: Promise<typeof import('@modelcontextprotocol/ext-apps/app-bridge')> | undefined;
const bridges = () => (bridgeModule ??= import('@modelcontextprotocol/ext-apps/app-bridge'));

const HOST_MODES: DisplayMode[] = ['inline', 'fullscreen', 'pip'];
/** How long a view has to answer `ui/resource-teardown` before it is torn down anyway. */
const TEARDOWN_WAIT_MS = 3_000;
/** How many asks a view's list keeps (a view may log without end). */
const MAX_ASKS = 500;
/** How long a view's `ui/message` waits for the user's answer before it is denied. */
const ANSWER_WAIT_MS = 10 * 60_000;

export interface ViewHooks {
  /** A message for the view, to the tab that shows it. */
  post: (text: string) => void;
  /** The view's state changed. */
  changed: (state: AppViewState) => void;
  /** An approved download's files, read, for the tab to save. */
  download: (ask: string, files: DownloadedFile[]) => void;
}

export class ViewHost {
  private bridge!: AppBridge;
  private channel!: ViewChannel;
  private context: McpUiHostContext;
  private readonly asks: ViewAsk[] = [];
  private status: AppViewState['status'] = 'loading';
  private size: AppViewState['size'];
  private modelContext: unknown;
  private viewModes: DisplayMode[] = HOST_MODES;
  private calls = 0;
  private asked = 0;
  /** Asks waiting for the user (a `ui/message`), by ask id: how to answer the view. */
  private readonly waiting = new Map<string, (approved: boolean) => void>();

  private constructor(
    private readonly view: PreparedView,
    private readonly session: Session,
    private readonly hooks: ViewHooks,
  ) {
    this.context = view.context;
  }

  /** Connects the bridge; the sandbox's `sandbox-proxy-ready` starts the rest. */
  static async open(view: PreparedView, session: Session, hooks: ViewHooks): Promise<ViewHost> {
    const host = new ViewHost(view, session, hooks);
    const { AppBridge } = await bridges();
    host.bridge = new AppBridge(null, { name: 'mcp-loupe', title: 'MCP Loupe', version: VERSION }, view.capabilities, { hostContext: view.context });
    host.handle();
    host.channel = new ViewChannel(session.trace, view.id, hooks.post);
    await host.bridge.connect(host.channel);
    host.changed();
    return host;
  }

  get id(): string {
    return this.view.id;
  }

  /** What the page shows. */
  state(): AppViewState {
    const v = this.view;
    return {
      view: v.id,
      session: this.session.id,
      tool: v.tool.name,
      uri: v.uri,
      status: this.status,
      sandboxUrl: v.sandboxUrl,
      sandboxOrigin: v.sandboxOrigin,
      allow: v.allow,
      csp: v.csp,
      cspProblems: v.cspProblems,
      prefersBorder: v.prefersBorder,
      displayMode: (this.context.displayMode as DisplayMode | undefined) ?? 'inline',
      viewDisplayModes: this.viewModes,
      hostContext: { ...this.context, toolInfo: undefined },
      size: this.size,
      modelContext: this.modelContext,
      asks: this.asks,
    };
  }

  /** A message the tab relayed from the sandbox. */
  receive(text: string): void {
    this.channel.receive(text);
  }

  /** The user changed the host context: the view is told what changed (once it is initialized). */
  setContext(patch: HostContextPatch): void {
    const next = { ...this.context, ...patch };
    if (this.status === 'initialized') this.bridge.setHostContext(next);
    this.context = next;
    this.changed();
  }

  /** Sends `tool-input` and/or `tool-result` again (the user's edited values). */
  async replay(input: Record<string, unknown> | undefined, result: unknown): Promise<void> {
    if (this.status !== 'initialized') throw new Error('The view has not initialized yet: nothing may be sent to it before (the spec).');
    if (input !== undefined) await this.bridge.sendToolInput({ arguments: input });
    if (result !== undefined) await this.bridge.sendToolResult(result as never);
  }

  /** The user approved or denied an ask that waits (a `ui/message`). */
  answer(id: string, approve: boolean): void {
    this.waiting.get(id)?.(approve);
  }

  cspViolation(violation: CspViolation): void {
    this.ask({ kind: 'csp', text: `Blocked by the view’s Content-Security-Policy (${violation.directive}): ${violation.blocked}` });
  }

  /** `ui/resource-teardown` (answered or not within a few seconds), then the channel closes. */
  async close(reason: string): Promise<void> {
    if (this.status === 'closed') return;
    for (const id of [...this.waiting.keys()]) this.answer(id, false);
    if (this.status === 'initialized') {
      await this.bridge.teardownResource({ reason }, { timeout: TEARDOWN_WAIT_MS }).catch(() => undefined);
    }
    this.status = 'closed';
    await this.bridge.close().catch(() => undefined);
    this.changed();
  }

  private changed(): void {
    this.hooks.changed(this.state());
  }

  /** `ask` is kept as given (a waiting one is answered in place). */
  private ask(ask: Omit<ViewAsk, 'at'> & { at?: number }): void {
    this.asks.push(Object.assign(ask, { at: ask.at ?? Date.now() }));
    if (this.asks.length > MAX_ASKS) this.asks.splice(0, this.asks.length - MAX_ASKS);
    this.changed();
  }

  private handle(): void {
    const b = this.bridge;
    b.onsandboxready = () => {
      this.status = 'sandbox-ready';
      void b.sendSandboxResourceReady({ html: this.view.html, csp: this.view.declaredCsp, permissions: this.view.permissions }).catch(() => undefined);
      this.changed();
    };
    b.oninitialized = () => void this.initialized();
    b.oncalltool = (params) => this.callTool(params);
    b.onreadresource = async (params) => (await this.forward('resources/read', params)) as never;
    b.onmessage = (params) => this.askToSend(params.role, contentText(params.content));
    b.ondownloadfile = (params) => this.askToDownload(params.contents);
    b.onupdatemodelcontext = async (params) => {
      this.modelContext = params;
      this.ask({ kind: 'model-context', text: `The view set the model context: ${contentText(params.content) || JSON.stringify(params.structuredContent ?? {})}` });
      return {};
    };
    b.onopenlink = async ({ url }) => {
      if (!/^https?:\/\//i.test(url)) throw new ProtocolError(-32602, 'Invalid URL: Loupe opens http and https links only.');
      this.ask({ kind: 'open-link', text: `The view asked to open ${url}`, url });
      return {};
    };
    b.onrequestdisplaymode = async ({ mode }) => this.displayMode(mode as DisplayMode);
    b.onsizechange = (size) => {
      this.size = { width: size.width, height: size.height };
      this.changed();
    };
    b.onloggingmessage = (params) => this.ask({ kind: 'log', text: `${params.level}: ${typeof params.data === 'string' ? params.data : JSON.stringify(params.data)}` });
    b.onrequestteardown = () => this.ask({ kind: 'teardown', text: 'The view asked to be closed.' });
  }

  /**
   * A `ui/message`: the user approves or denies it (the Playground puts an approved one in its
   * conversation); the view gets its answer then.
   */
  private async askToSend(role: string, message: string): Promise<Record<string, never>> {
    const ask: ViewAsk = { kind: 'message', id: this.nextAskId(), answer: 'waiting', message, text: `The view asks to send a ${role} message: ${message}`, at: Date.now() };
    if (!(await this.waitForAnswer(ask))) throw new ProtocolError(-32000, 'Message sending denied');
    return {};
  }

  /**
   * A `ui/download-file` (draft): the user approves or denies it; approved, links are read from the
   * server (as the view's requests, in the History) and the files go to the tab, which offers to
   * save each. The view hears `isError` when denied or when a file could not be read.
   */
  private async askToDownload(contents: unknown): Promise<{ isError?: boolean }> {
    const { files, problems } = filesToDownload(contents);
    const left = problems.length > 0 ? ` Left out: ${problems.join('; ')}.` : '';
    if (files.length === 0) {
      this.ask({ kind: 'download', text: `The view asked to download nothing Loupe can save.${left}` });
      return { isError: true };
    }
    const entries = files.map(({ content: _content, ...entry }) => entry);
    const ask: ViewAsk = { kind: 'download', id: this.nextAskId(), answer: 'waiting', files: entries, text: `The view asks to download ${files.length === 1 ? 'a file' : `${files.length} files`}: ${describeFiles(entries)}.${left}`, at: Date.now() };
    if (!(await this.waitForAnswer(ask))) return { isError: true };
    try {
      this.hooks.download(ask.id!, await this.readFiles(files));
      return {};
    } catch (error) {
      ask.problem = `Not saved: ${error instanceof Error ? error.message : String(error)}`;
      this.changed();
      return { isError: true };
    }
  }

  /** Each file's bytes: embedded ones as sent, links read from the server; at most MAX_DOWNLOAD_BYTES in all. */
  private async readFiles(files: DownloadRequest['files']): Promise<DownloadedFile[]> {
    let total = 0;
    const out: DownloadedFile[] = [];
    for (const file of files) {
      let content = file.content;
      if (!content) {
        const read = (await this.forward('resources/read', { uri: file.uri })) as { contents?: unknown[] } | undefined;
        content = contentOf(read?.contents?.[0]);
        if (!content) throw new Error(`the server's answer for ${file.uri} holds neither text nor blob`);
      }
      total += contentSize(content);
      if (total > MAX_DOWNLOAD_BYTES) throw new Error(`the files come to more than ${MAX_DOWNLOAD_BYTES / 1024 / 1024} MB, more than Loupe saves for one request`);
      out.push({ name: file.name, mimeType: file.mimeType, ...content });
    }
    return out;
  }

  /** A counter, not the list's length: the list is capped, and an id must not come back. */
  private nextAskId(): string {
    return `ask-${++this.asked}`;
  }

  /** Lists an ask that waits for the user: true once approved; denied after ten minutes unanswered, or when the view closes. */
  private waitForAnswer(ask: ViewAsk): Promise<boolean> {
    const id = ask.id!;
    this.ask(ask);
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.answer(id, false), ANSWER_WAIT_MS);
      timer.unref?.();
      this.waiting.set(id, (approved) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        ask.answer = approved ? 'approved' : 'denied';
        this.changed();
        resolve(approved);
      });
    });
  }

  private async initialized(): Promise<void> {
    this.status = 'initialized';
    const declared = this.bridge.getAppCapabilities()?.availableDisplayModes as DisplayMode[] | undefined;
    if (declared) this.viewModes = declared.filter((m) => HOST_MODES.includes(m));
    // Changes the user made while the view was loading (the initialize answer had the old context).
    this.bridge.setHostContext(this.context);
    this.changed();
    await this.bridge.sendToolInput({ arguments: this.view.arguments }).catch(() => undefined);
    if (this.view.result !== undefined) await this.bridge.sendToolResult(this.view.result as never).catch(() => undefined);
  }

  private async displayMode(mode: DisplayMode): Promise<{ mode: DisplayMode }> {
    const current = (this.context.displayMode as DisplayMode | undefined) ?? 'inline';
    if (!HOST_MODES.includes(mode) || !this.viewModes.includes(mode)) {
      this.ask({ kind: 'display-mode', text: `The view asked for ${mode}, which it did not declare; it stays ${current}.` });
      return { mode: current };
    }
    this.ask({ kind: 'display-mode', text: `The view asked for ${mode}.` });
    this.setContext({ displayMode: mode });
    return { mode };
  }

  private async callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<never> {
    const tool = await this.view.toolNamed(params.name);
    if (tool && !appMayCall(tool)) {
      const message = `Refused by Loupe: the tool "${params.name}" is not visible to apps (its _meta.ui.visibility is ${JSON.stringify(visibilityOf(tool).visibility)}).`;
      this.ask({ kind: 'refused', text: message });
      throw new ProtocolError(-32600, message);
    }
    return (await this.forward('tools/call', params)) as never;
  }

  /** The view's request, to the server through the session, as the view's. */
  private async forward(method: string, params: unknown): Promise<unknown> {
    const outcome = await this.session.request(`${this.view.id}-${++this.calls}`, method, params as Record<string, unknown>, { byView: this.view.id });
    if (outcome.ok) return outcome.result;
    const code = typeof outcome.error.code === 'number' ? outcome.error.code : -32603;
    throw new ProtocolError(code, outcome.error.message, 'data' in outcome.error ? outcome.error.data : undefined);
  }
}

/** The text of a content block or a list of them, for one line. */
function contentText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : content === undefined ? [] : [content];
  return blocks
    .map((b) => (b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : `[${(b as { type?: string })?.type ?? 'content'}]`))
    .join(' ')
    .slice(0, 2_000);
}
