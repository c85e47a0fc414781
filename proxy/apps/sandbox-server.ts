/**
 * The sandbox's origin (issue 24): a second loopback HTTP server, so that a server's view never
 * runs on Loupe's own origin (the spec's "Sandbox proxy": host and sandbox MUST have different
 * origins). It serves two documents per view, and takes one kind of POST:
 *
 * - `/sandbox/<view>?t=<token>`: the sandbox proxy (sandbox-page.ts), framed only by Loupe's page;
 * - `/view/<view>?t=<token>`: the view's HTML exactly as the proxy read it from the server, under
 *   the Content-Security-Policy the proxy built from the resource's `_meta.ui.csp` (a header, not
 *   a `<meta>` the HTML could precede), framed only by the sandbox;
 * - `POST /csp/<view>?t=<token>`: the browser's reports of what that policy blocked.
 *
 * The HTML and the policy come from the proxy, never from a page: a view that learns its own URL
 * can fetch no other view (each has its own token) and cannot serve itself a looser policy.
 * Every request needs a loopback Host naming this port (DNS rebinding) and the view's token; a
 * document is served only into a frame (`Sec-Fetch-Dest`), never as a top-level page.
 *
 * Written on node:http rather than a framework: three routes, each a few lines, and the checks
 * must come before anything is read.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAllowedHost, newToken, tokenMatches } from '../listen/security.ts';
import { sandboxPage } from './sandbox-page.ts';

/** One view as the sandbox serves it. */
export interface SandboxView {
  id: string;
  /** Loupe's page origin: the only one that may frame the sandbox, and the one it talks to. */
  hostOrigin: string;
  html: string;
  /** The view's Content-Security-Policy, built from what the server declared (lib/apps/csp.ts). */
  csp: string;
  /** The inner iframe's `allow` attribute (from `_meta.ui.permissions`). */
  allow: string;
}

/** A Content-Security-Policy report, in words the page lists. */
export interface CspViolation {
  directive: string;
  blocked: string;
}

export interface SandboxUrls {
  origin: string;
  sandboxUrl: string;
}

const REPORT_MAX_BYTES = 64 * 1024;
const COMMON_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' };

export class SandboxServer {
  private readonly views = new Map<string, SandboxView & { token: string }>();
  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly onViolation: (view: string, violation: CspViolation) => void,
  ) {}

  /** Listens on 127.0.0.1 on a port of the system's choosing. */
  static async start(onViolation: (view: string, violation: CspViolation) => void): Promise<SandboxServer> {
    const ready: { self?: SandboxServer } = {};
    const server = createServer((req, res) => ready.self?.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    // It never keeps Loupe running: it closes with the last view, or goes with the process.
    server.unref();
    ready.self = new SandboxServer(server, (server.address() as AddressInfo).port, onViolation);
    return ready.self;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Serves `view` from now on, under a token of its own; its sandbox's URL. */
  add(view: SandboxView): SandboxUrls {
    const token = newToken(32);
    this.views.set(view.id, { ...view, token });
    return { origin: this.origin, sandboxUrl: `${this.origin}/sandbox/${encodeURIComponent(view.id)}?t=${token}` };
  }

  remove(id: string): void {
    this.views.delete(id);
  }

  close(): Promise<void> {
    this.views.clear();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const refusal = this.refusal(req);
    if (refusal) {
      req.resume();
      return end(res, refusal.status, refusal.message);
    }
    const url = new URL(req.url ?? '/', this.origin);
    const [, kind, id] = url.pathname.split('/');
    const view = this.views.get(decodeURIComponent(id ?? ''));
    if (!view || !tokenMatches(view.token, url.searchParams.get('t'))) {
      req.resume();
      return end(res, 404, 'No such view: it was closed, or the link is not one Loupe made.');
    }
    if (kind === 'csp' && req.method === 'POST') return this.report(req, res, view.id);
    req.resume();
    if (req.method !== 'GET' || (kind !== 'sandbox' && kind !== 'view')) return end(res, 405, 'Only the sandbox and its view are served here.');
    // A document of the sandbox is for a frame of Loupe's page: never a page of its own.
    const dest = req.headers['sec-fetch-dest'];
    if (dest !== undefined && dest !== 'iframe') return end(res, 403, 'The sandbox is served into Loupe’s page only.');
    if (kind === 'sandbox') return this.sandbox(res, view);
    // frame-ancestors is checked against every ancestor: the sandbox and Loupe's page above it.
    const policy = `${view.csp}; frame-ancestors ${this.origin} ${view.hostOrigin}; report-uri /csp/${encodeURIComponent(view.id)}?t=${view.token}`;
    res.writeHead(200, { ...COMMON_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': policy });
    res.end(view.html);
  }

  private sandbox(res: ServerResponse, view: SandboxView & { token: string }): void {
    const nonce = newToken(16);
    const viewUrl = `/view/${encodeURIComponent(view.id)}?t=${view.token}`;
    const policy = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; frame-src 'self'; frame-ancestors ${view.hostOrigin}; base-uri 'none'; form-action 'none'`;
    res.writeHead(200, { ...COMMON_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': policy });
    res.end(sandboxPage({ nonce, hostOrigin: view.hostOrigin, viewUrl, allow: view.allow }));
  }

  /** A loopback Host naming this port; no Origin but Loupe's page, the sandbox itself or an opaque one (`null`). */
  private refusal(req: IncomingMessage): { status: number; message: string } | undefined {
    if (!isAllowedHost(req.headers.host, { port: this.port })) return { status: 403, message: 'Forbidden: this Host header is not allowed (only loopback names, against DNS rebinding).' };
    const origin = req.headers.origin;
    if (origin === undefined || origin === 'null' || origin === this.origin) return undefined;
    const hosts = new Set([...this.views.values()].map((v) => v.hostOrigin));
    return hosts.has(origin) ? undefined : { status: 403, message: 'Forbidden: requests from other origins are refused.' };
  }

  private report(req: IncomingMessage, res: ServerResponse, id: string): void {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/csp-report' && type !== 'application/reports+json') {
      req.resume();
      return end(res, 415, 'Only Content-Security-Policy reports are taken here.');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= REPORT_MAX_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      end(res, 204, '');
      if (size > REPORT_MAX_BYTES) return;
      for (const violation of violationsOf(Buffer.concat(chunks).toString('utf8'))) this.onViolation(id, violation);
    });
    req.on('error', () => undefined);
  }
}

/** The reports in a body: the `report-uri` form (`{"csp-report": {…}}`) or the Reporting API's (a list). */
export function violationsOf(body: string): CspViolation[] {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return [];
  }
  const reports = Array.isArray(data) ? data.map((r) => (r as { body?: unknown })?.body) : [(data as { 'csp-report'?: unknown })?.['csp-report']];
  const out: CspViolation[] = [];
  for (const report of reports) {
    if (report === null || typeof report !== 'object') continue;
    const r = report as Record<string, unknown>;
    const directive = text(r['effective-directive'] ?? r.effectiveDirective ?? r['violated-directive']);
    const blocked = text(r['blocked-uri'] ?? r.blockedURL);
    if (directive) out.push({ directive, blocked: blocked || 'inline' });
  }
  return out;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 500) : '';
}

function end(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(message);
}
