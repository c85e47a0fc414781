/**
 * The MCP Apps bridge's transport (issue 24): an SDK `Transport` whose far end is a view in a tab.
 * It feeds the one frame pipeline like every other source (pipeline/frame-record.ts): each message
 * is recorded once, in the session's trace, with the view's id (`FrameEvent.view`; `in` is
 * view→host, `out` host→view), before anything acts on it; what the tab relays is parsed once, and
 * a message that is not JSON-RPC stays in the trace and goes no further.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { recordFrame, type FrameExtra } from '../pipeline/frame-record.ts';
import type { TraceRecorder } from '../pipeline/trace-recorder.ts';
import { stringifySafe } from '../../lib/json/safe-json.ts';

export class ViewChannel implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private closed = false;

  /** `post`: hands a message's text to the tab that shows the view. */
  constructor(
    private readonly trace: TraceRecorder,
    readonly view: string,
    private readonly post: (text: string) => void,
  ) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('The view is closed.');
    const text = stringifySafe(message) ?? '';
    recordFrame(this.trace, 'out', text, { view: this.view, parsed: { value: message } });
    this.post(text);
  }

  /** A message the sandbox posted to the tab, as the tab relayed it. */
  receive(text: string): void {
    if (this.closed) return;
    const read = recordFrame(this.trace, 'in', text, { view: this.view });
    if (!read.valid) return;
    const extra: FrameExtra = { text, frame: read.event };
    try {
      this.onmessage?.(read.message as JSONRPCMessage, extra as never);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
