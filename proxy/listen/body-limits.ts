/**
 * The request bodies of Loupe's HTTP MCP endpoints (the gateway, the mock), read by Loupe before any
 * of them reaches a session, starts a target or is answered from a recording (issue 21, item 6: "60
 * slow 4 MB gateway bodies held 190 MB"). Three bounds: one body (413), the bytes of every body
 * being read at once (503 with Retry-After, so that a client comes back rather than failing), and
 * the time a body may take to arrive (408). A body that declares its length reserves it whole when
 * it starts, so a slow upload cannot get its share later; a chunked one is counted as it arrives.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerError, type Endpoint } from './endpoint-guard.ts';

export interface BodyLimits {
  /** One body, in bytes (the SDK's own bound for a body it reads itself is 4 MB). */
  maxBytes: number;
  /** All the bodies being read at once, in bytes. */
  maxTotalBytes: number;
  /** How long a body may take to arrive, from the moment its request is handled. */
  timeoutMs: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = { maxBytes: 4 * 1024 * 1024, maxTotalBytes: 16 * 1024 * 1024, timeoutMs: 30_000 };

export type Body = { ok: true; value: unknown } | { ok: false; status: number; code: number; message: string; retryAfter?: number };

/** "64 KiB", "4 MiB", "1.5 MiB": a limit in the words of a refusal. */
export function describeBytes(bytes: number): string {
  const [unit, size] = bytes >= 1024 * 1024 ? ['MiB', 1024 * 1024] : bytes >= 1024 ? ['KiB', 1024] : ['bytes', 1];
  return `${Math.round((bytes / size) * 10) / 10} ${unit}`;
}

/** "1 second", "90 seconds", "10 minutes": a limit of time in the words of a refusal or a note. */
export function describeDuration(ms: number): string {
  if (ms < 60_000) {
    const seconds = Math.max(1, Math.round(ms / 1000));
    return `${seconds} second${seconds === 1 ? '' : 's'}`;
  }
  const minutes = Math.round((ms / 60_000) * 10) / 10;
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export class BodyReader {
  private readonly endpoint: Endpoint;
  private readonly limits: BodyLimits;
  /** Bytes reserved by the bodies being read now. */
  private reading = 0;

  constructor(endpoint: Endpoint, limits: Partial<BodyLimits> = {}) {
    this.endpoint = endpoint;
    this.limits = { ...DEFAULT_BODY_LIMITS, ...limits };
  }

  /** The bytes held by bodies being read (tests). */
  get held(): number {
    return this.reading;
  }

  private tooLarge(): Body {
    return { ok: false, status: 413, code: -32000, message: `Payload too large: ${this.endpoint.name} reads request bodies of at most ${describeBytes(this.limits.maxBytes)}.` };
  }

  private busy(): Body {
    const message = `Service unavailable: ${this.endpoint.name} is reading ${describeBytes(this.limits.maxTotalBytes)} of request bodies at once, its limit; try again in a moment.`;
    return { ok: false, status: 503, code: -32000, message, retryAfter: 1 };
  }

  private slow(): Body {
    const message = `Request timeout: the body did not arrive within ${describeDuration(this.limits.timeoutMs)}; ${this.endpoint.name} does not wait longer for a request body.`;
    return { ok: false, status: 408, code: -32000, message };
  }

  /**
   * The body as JSON; else undefined, once the refusal is answered. A refused body also closes the
   * connection, so that the rest of it is not read.
   */
  async readOrRefuse(req: IncomingMessage, res: ServerResponse): Promise<{ value: unknown } | undefined> {
    const body = await this.read(req);
    if (body.ok) return body;
    res.once('finish', () => req.destroy());
    answerError(res, body.status, body.message, body.code, { connection: 'close', ...(body.retryAfter !== undefined ? { 'retry-after': String(body.retryAfter) } : {}) });
    return undefined;
  }

  /** The body as JSON, or why not (then the caller answers, and closes the connection: see `readOrRefuse`). */
  read(req: IncomingMessage): Promise<Body> {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > this.limits.maxBytes) return Promise.resolve(this.tooLarge());
    let reserved = Number.isSafeInteger(declared) && declared > 0 ? declared : 0;
    if (this.reading + reserved > this.limits.maxTotalBytes) return Promise.resolve(this.busy());
    this.reading += reserved;
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (body: Body) => {
        clearTimeout(timer);
        req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
        this.reading -= reserved;
        reserved = 0;
        resolve(body);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > this.limits.maxBytes) return finish(this.tooLarge());
        if (size > reserved) {
          if (this.reading + (size - reserved) > this.limits.maxTotalBytes) return finish(this.busy());
          this.reading += size - reserved;
          reserved = size;
        }
        chunks.push(chunk);
      };
      const onEnd = () => finish(parse(Buffer.concat(chunks)));
      const onGone = () => finish({ ok: false, status: 400, code: -32000, message: 'Bad Request: the request ended before its body did.' });
      const timer = setTimeout(() => finish(this.slow()), this.limits.timeoutMs);
      req.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onGone);
    });
  }
}

function parse(bytes: Buffer): Body {
  try {
    return { ok: true, value: JSON.parse(bytes.toString('utf8')) };
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: Invalid JSON' };
  }
}
