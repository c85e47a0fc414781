/** Test-only (excluded from the build): the client's end of stdio over two in-process streams, for the mock's tests. */
import type { Readable, Writable } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Framed by the SDK's own ReadBuffer; either generation's Client can use it (the framing is the same). */
export class StreamClientTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();
  private readonly fromMock: Readable;
  private readonly toMock: Writable;

  constructor(fromMock: Readable, toMock: Writable) {
    this.fromMock = fromMock;
    this.toMock = toMock;
  }

  async start(): Promise<void> {
    this.fromMock.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) this.onmessage?.(message);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.toMock.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.toMock.end();
    this.onclose?.();
  }
}
