/**
 * Loupe as an OTLP/HTTP receiver (issue 28): `POST /v1/traces` on the UI's own port (127.0.0.1),
 * where a server exports its spans (JSON or protobuf). The UI server checked Host and Origin
 * before this is called (a web page cannot post here); this checks the credential — Loupe's
 * launch token, or the receiver's own per-launch token, which is what Loupe gives the stdio
 * servers it starts (in `OTEL_EXPORTER_OTLP_HEADERS`, their environment only) so that a server
 * never holds the key to the page — then the body's size and type. Answers as the OTLP
 * specification says: 200 with an (empty or partial-success) ExportTraceServiceResponse.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fromOtlpJson } from '../../lib/otel/otlp-json.ts';
import { maskSpan } from '../../lib/otel/mask.ts';
import { secretScrubber } from '../../lib/trace/secret-mask.ts';
import { tokenMatches } from '../listen/security.ts';
import { decodeTraceRequest } from './otlp-protobuf.ts';
import type { Tracing } from './tracing.ts';

export const RECEIVER_PATH = '/v1/traces';
/** One export request at most (the SDK's batches are far smaller). */
const MAX_BODY = 8 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

export interface ReceiverOptions {
  launchToken: string;
  receiverToken: string;
  tracing: () => Tracing | undefined;
}

function answer(res: ServerResponse, status: number, message?: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  const body = message === undefined ? '{}' : JSON.stringify({ code: status, message });
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }).end(body);
}

function credentialOf(req: IncomingMessage): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

function readBody(req: IncomingMessage): Promise<Uint8Array | string> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY) return resolve(`The body is larger than ${MAX_BODY / (1024 * 1024)} MiB; send smaller batches.`);
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => (req.destroy(), resolve('The body took longer than 30 s to arrive.')), TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) return void chunks.push(chunk);
      clearTimeout(timer);
      // The rest is read and thrown away, so that the answer reaches the sender; the connection closes after it.
      req.off('data', onData);
      req.resume();
      chunks.length = 0;
      resolve(`The body is larger than ${MAX_BODY / (1024 * 1024)} MiB; send smaller batches.`);
    };
    req.on('data', onData);
    req.on('end', () => (clearTimeout(timer), resolve(new Uint8Array(Buffer.concat(chunks)))));
    req.on('error', () => (clearTimeout(timer), resolve('The body could not be read.')));
  });
}

function parse(type: string, body: Uint8Array): { ok: true; value: unknown } | { ok: false; error: string } {
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return decodeTraceRequest(body);
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(body)) as unknown };
  } catch {
    return { ok: false, error: 'The body is not JSON.' };
  }
}

/** Handles `/v1/traces`; never throws. */
export async function receiveTraces(req: IncomingMessage, res: ServerResponse, options: ReceiverOptions): Promise<void> {
  if (req.method !== 'POST') return answer(res, 405, 'Loupe’s OTLP receiver takes POST /v1/traces only.', { allow: 'POST' });
  const given = credentialOf(req);
  if (!tokenMatches(options.receiverToken, given) && !tokenMatches(options.launchToken, given)) {
    return answer(res, 401, 'Loupe’s OTLP receiver needs "Authorization: Bearer <token>": the receiver token Loupe puts in OTEL_EXPORTER_OTLP_HEADERS for the servers it starts, or the launch token.', { 'www-authenticate': 'Bearer realm="mcp-loupe-otlp"' });
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (!['application/json', 'application/x-protobuf', 'application/protobuf'].includes(type)) {
    return answer(res, 415, 'Loupe’s OTLP receiver takes application/json or application/x-protobuf bodies.');
  }
  const body = await readBody(req);
  if (typeof body === 'string') return answer(res, body.includes('larger') ? 413 : body.includes('longer') ? 408 : 400, body, { connection: 'close' });
  const parsed = parse(type, body);
  const read = parsed.ok ? fromOtlpJson(parsed.value) : parsed;
  if (!read.ok) return answer(res, 400, read.error);
  const tracing = options.tracing();
  // Loupe's own credentials never travel on, whatever a server put in its spans.
  const scrub = secretScrubber([options.receiverToken, options.launchToken], 'secret');
  const outcome = tracing ? tracing.receive(read.spans.map((span) => maskSpan(span, scrub))) : { joined: 0, unjoined: read.spans.length };
  const rejected = read.skipped + (tracing ? 0 : outcome.unjoined);
  if (rejected === 0) return answer(res, 200);
  const message = tracing ? `${read.skipped} span(s) had no valid trace or span id.` : 'Tracing is not on in this Loupe.';
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ partialSuccess: { rejectedSpans: String(rejected), errorMessage: message } }));
}
