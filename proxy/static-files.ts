/**
 * Serves the statically exported UI (`next build` with `output: 'export'` writes `out/`).
 * Files are streamed from disk, not cached in memory: the proxy's idle footprint is measured.
 */
import { createReadStream, statSync } from 'node:fs';
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

/** The page may only talk to its own origin; server-supplied images come as data: URLs. */
const CSP = [
  "default-src 'self'",
  // Next's static export boots with inline scripts; no external script can load.
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CSP,
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
  const immutable = pathname.startsWith('/_next/static/');
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (req.method === 'HEAD') res.end();
  else createReadStream(file).pipe(res);
}
