/**
 * Acting on the trace: the raw composer (any JSON-RPC message, as written), replaying a frame
 * as is or edited, ping, and `logging/setLevel`. A store of its own so that a draft, the last
 * answer and the ping's round trip survive switching tabs.
 */
import { parseHeaderLines } from '../../lib/config/command-line.ts';
import { frameMessage } from '../../lib/trace/frame-message.ts';
import type { HistoryRow } from '../../lib/trace/trace.ts';
import { formatJson } from '../../lib/json/safe-json.ts';
import { rawText, type RequestOutcome } from '../_wire/request-outcome.ts';
import type { SessionPort } from '../_wire/session-port.ts';
import { ExternalStore } from './external-store.ts';

export type SendOrigin = 'replay' | 'edited' | 'composer';

export interface SentMessage {
  message: Record<string, unknown>;
  /** What the proxy will record (JSON.stringify of the message): finds the frame in the trace. */
  raw: string;
  origin: SendOrigin;
  /** The history row it replays or edits. */
  fromSeq?: number;
  expectsAnswer: boolean;
  /** The extra HTTP headers it went with (composer, HTTP sessions). */
  headers?: Record<string, string>;
}

export interface ComposerState {
  draft: string;
  /**
   * Extra HTTP headers for the composed message's POST, one `Name: value` a line (HTTP sessions
   * only; issue 12): a wrong `Mcp-Method`, a stray `Mcp-Session-Id`, to see what the server does.
   */
  headers: string;
  /** `edited` while the draft came from a frame, `composer` for a blank one. */
  origin: 'edited' | 'composer';
  fromSeq?: number;
  /** Why the draft cannot be sent (not JSON, not an object). */
  problem?: string;
  sending: boolean;
  sent?: SentMessage;
  outcome?: RequestOutcome;
}

export interface PingState {
  sending: boolean;
  outcome?: RequestOutcome;
  at?: number;
}

export interface LevelState {
  level?: string;
  sending: boolean;
  outcome?: RequestOutcome;
}

export interface ActionsState {
  composer: ComposerState;
  ping: PingState;
  level: LevelState;
}

export const REQUEST_TEMPLATE = JSON.stringify({ jsonrpc: '2.0', id: 'composer-1', method: 'tools/list', params: {} }, null, 2);
export const NOTIFICATION_TEMPLATE = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, null, 2);

/** Ids of hand-sent requests: unique within a session (MCP forbids reusing one), readable in the trace. */
let sentCount = 0;
function freshId(prefix: string): string {
  sentCount += 1;
  return `${prefix}-${Date.now().toString(36)}-${sentCount}`;
}

function parseDraft(text: string): { ok: true; message: Record<string, unknown> } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `Not JSON: ${(error as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, problem: 'A JSON-RPC message is one JSON object.' };
  return { ok: true, message: value as Record<string, unknown> };
}

function isRequest(message: Record<string, unknown>): boolean {
  return typeof message.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number');
}

/** The frame's message with a fresh id when it is a request (so a replay is not a reused id). */
export function messageOf(row: HistoryRow): Record<string, unknown> | undefined {
  if (row.event.kind !== 'frame') return undefined;
  // The frame's one parse (lib/trace/frame-message.ts), copied: what is sent must not change the trace's.
  const value = frameMessage(row.event);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const message = { ...(value as Record<string, unknown>) };
  return isRequest(message) ? { ...message, id: freshId(String(message.id)) } : message;
}

export class TraceActions extends ExternalStore<ActionsState> {
  constructor(private readonly port: SessionPort) {
    super({ composer: { draft: REQUEST_TEMPLATE, headers: '', origin: 'composer', sending: false }, ping: { sending: false }, level: { sending: false } });
  }

  setDraft(draft: string): void {
    this.setComposer({ draft, problem: undefined });
  }

  setHeaders(headers: string): void {
    this.setComposer({ headers, problem: undefined });
  }

  useTemplate(kind: 'request' | 'notification'): void {
    this.setComposer({ draft: kind === 'request' ? REQUEST_TEMPLATE.replace('composer-1', freshId('composer')) : NOTIFICATION_TEMPLATE, origin: 'composer', fromSeq: undefined, problem: undefined });
  }

  /** Put a frame in the composer to edit it; what is sent is marked `edited` in the trace. */
  edit(row: HistoryRow): void {
    const message = messageOf(row);
    const draft = message ? formatJson(message).text : row.event.kind === 'frame' ? row.event.raw : '';
    this.setComposer({ draft, origin: 'edited', fromSeq: row.seq, problem: undefined });
  }

  async sendDraft(): Promise<void> {
    const composer = this.state.composer;
    const parsed = parseDraft(composer.draft);
    if (!parsed.ok) {
      this.setComposer({ problem: parsed.problem });
      return;
    }
    const headers = this.composerHeaders(composer.headers);
    if (!headers.ok) {
      this.setComposer({ problem: headers.error });
      return;
    }
    await this.send(parsed.message, composer.origin, composer.fromSeq, headers.record);
  }

  /** The headers field → a record, on HTTP sessions only (a stdio session has no POST to put them on). */
  private composerHeaders(text: string): { ok: true; record?: Record<string, string> } | { ok: false; error: string } {
    if (this.port.getSnapshot().info?.config.kind !== 'http' || text.trim() === '') return { ok: true };
    const parsed = parseHeaderLines(text);
    if (!parsed.ok) return { ok: false, error: parsed.error.replace(/^Headers/, 'HTTP headers') };
    return { ok: true, record: Object.keys(parsed.record).length > 0 ? parsed.record : undefined };
  }

  /** Send a frame again as it was (a request gets a fresh id). */
  async replay(row: HistoryRow): Promise<void> {
    const message = messageOf(row);
    if (message) await this.send(message, 'replay', row.seq);
  }

  async ping(): Promise<void> {
    this.update({ ping: { ...this.state.ping, sending: true } });
    const outcome = await this.port.request('ping', {});
    this.update({ ping: { sending: false, outcome, at: Date.now() } });
  }

  async setLevel(level: string): Promise<void> {
    this.update({ level: { level, sending: true } });
    const outcome = await this.port.request('logging/setLevel', { level });
    if (this.state.level.level === level) this.update({ level: { level, sending: false, outcome } });
  }

  private async send(message: Record<string, unknown>, origin: SendOrigin, fromSeq?: number, headers?: Record<string, string>): Promise<void> {
    // The text goes to the proxy as is; any depth passes (issue 8).
    const sent: SentMessage = { message, raw: rawText(message), origin, fromSeq, expectsAnswer: isRequest(message), ...(headers ? { headers } : {}) };
    this.setComposer({ sending: true, sent, outcome: undefined, problem: undefined });
    const outcome = await this.port.sendRaw(message, origin, undefined, sent.raw, headers);
    if (this.state.composer.sent === sent) this.setComposer({ sending: false, outcome });
  }

  private setComposer(patch: Partial<ComposerState>): void {
    this.update({ composer: { ...this.state.composer, ...patch } });
  }

  private update(patch: Partial<ActionsState>): void {
    this.set({ ...this.state, ...patch });
  }
}
