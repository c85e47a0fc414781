/**
 * Raw HTTP and WebSocket requests at Loupe's port, with the headers a browser would not let a
 * page choose (Host, Origin): what an attacker's script or a DNS-rebinding page could send.
 */
import { request } from 'node:http';
import WebSocket from 'ws';

export interface WsAttempt {
  opened: boolean;
  /** HTTP status of a refused upgrade. */
  status?: number;
  error?: string;
  /** The first message, when it opened. */
  first?: unknown;
}

/**
 * Try a WebSocket upgrade. If it opens, wait for the first message and then send `onOpenSend`
 * (an attack that must never get that far).
 */
export function tryWebSocket(url: string, headers: Record<string, string> = {}, onOpenSend?: unknown): Promise<WsAttempt> {
  return new Promise((done) => {
    const ws = new WebSocket(url, { headers, handshakeTimeout: 5_000 });
    const timer = setTimeout(() => finish({ opened: true, error: 'no first message within 5 s' }), 5_000);
    let settled = false;
    const finish = (attempt: WsAttempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (attempt.opened && onOpenSend !== undefined) ws.send(JSON.stringify(onOpenSend));
      setTimeout(() => ws.terminate(), 200);
      done(attempt);
    };
    ws.on('unexpected-response', (_req, res) => {
      finish({ opened: false, status: res.statusCode });
      res.resume();
    });
    ws.on('message', (data) => {
      let first: unknown = String(data);
      try {
        first = JSON.parse(String(data));
      } catch {
        // keep the text
      }
      finish({ opened: true, first });
    });
    ws.on('error', (error) => finish({ opened: false, error: error.message }));
    ws.on('close', (code) => finish({ opened: false, error: `closed with ${code} before any message` }));
  });
}

/** GET `path` on 127.0.0.1:`port` with exactly these headers (Host included). */
export function httpGet(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers, timeout: 5_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (s: string) => (body += s));
      res.on('end', () => done({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', fail);
    req.end();
  });
}
