/**
 * Serves the statically exported UI (`next build` with `output: 'export'` writes `out/`).
 * Files are streamed from disk, not cached in memory: the proxy's idle footprint is measured.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/**
 * The page may only talk to its own origin; server-supplied images come as data: URLs.
 * Scripts: our own files, plus the inline boot scripts of the static export allowed one by one by
 * their hashes (an injected inline script would not match). 'unsafe-eval' is there for Ajv, which
 * compiles JSON Schemas (tool inputSchemas) into functions with `new Function`.
 */
function contentSecurityPolicy(scriptHashes: string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-eval' ${scriptHashes.map((h) => `'${h}'`).join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "connect-src 'self'",
    // MCP Apps views (issue 24): the sandbox is a second loopback server, on a port chosen with the first view.
    "frame-src 'self' http://127.0.0.1:*",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** sha256 sources for every inline script of an HTML page (CSP Level 2 hash sources). */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    if (match[1].length > 0) hashes.add(`sha256-${createHash('sha256').update(match[1], 'utf8').digest('base64')}`);
  }
  return [...hashes];
}

/** HTML pages are small; each is read once, with its policy, and kept. */
const htmlCache = new Map<string, { mtimeMs: number; body: Buffer; csp: string }>();

function readHtml(file: string): { body: Buffer; csp: string } {
  const mtimeMs = statSync(file).mtimeMs;
  const cached = htmlCache.get(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached;
  const body = readFileSync(file);
  const entry = { mtimeMs, body, csp: contentSecurityPolicy(inlineScriptHashes(body.toString('utf8'))) };
  htmlCache.set(file, entry);
  return entry;
}

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': contentSecurityPolicy([]),
  'x-content-type-options': 'nosniff',
  // The page URL carries the token: never send it anywhere in a Referer.
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function resolveFile(root: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  const candidates = relative === '' ? ['index.html'] : [relative, `${relative}.html`, join(relative, 'index.html')];
  for (const candidate of candidates) {
    const file = join(root, candidate);
    if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined;
    try {
      if (statSync(file).isFile()) return file;
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

export function serveStatic(root: string, req: IncomingMessage, res: ServerResponse, pathname: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...SECURITY_HEADERS, allow: 'GET, HEAD' }).end();
    return;
  }
  const file = resolveFile(root, pathname);
  if (!file) {
    const notFound = resolveFile(root, '404.html');
    res.writeHead(404, { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8' });
    if (notFound && req.method === 'GET') createReadStream(notFound).pipe(res);
    else res.end('Not found');
    return;
  }
  if (file.endsWith('.html')) {
    const { body, csp } = readHtml(file);
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-security-policy': csp, 'content-type': TYPES['.html'], 'cache-control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  const immutable = pathname.startsWith('/_next/static/');
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (req.method === 'HEAD') res.end();
  else createReadStream(file).pipe(res);
}
