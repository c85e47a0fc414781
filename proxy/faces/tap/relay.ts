/**
 * One direction of `mcp-loupe --tap` (issue 13): the host's stdin toward the server, or the
 * server's stdout toward the host.
 *
 * With no active rule the bytes are copied as they come (a chunk in, the same chunk out) and a
 * copy of each chunk is queued for the recording, which splits and classifies it in a later turn
 * batch (RecordingQueue): the relay parses nothing, so its cost is a pipe copy. With
 * active rules the direction goes line by line through the frame pipeline instead. The mode is
 * decided per chunk, and a switch never splits or repeats a line: a line begun in bytes ends in
 * bytes, and a line buffered for the pipeline when the rules go away is written out as it came.
 */
import { LineSplitter } from '../../upstream/stdio/line-splitter.ts';
import { now } from '../../pipeline/trace-recorder.ts';

/** How long chunks wait to be recorded together: one turn of recording (and one write of the file) for many frames. */
export const RECORD_BATCH_MS = 5;
/** Queued bytes that are recorded at once rather than after the wait. */
const RECORD_BATCH_BYTES = 1024 * 1024;

/**
 * Both directions' chunks in the order they came, recorded in one batch after RECORD_BATCH_MS: the
 * relay's round trip does not wait behind a turn of recording per frame (a host that answers at
 * once found the tap busy recording the frame before), and the trace's order is the wire's, across
 * both directions, because there is one queue.
 */
export class RecordingQueue {
  private entries: { side: SideRecorder; chunk: Buffer; at: number }[] = [];
  private bytes = 0;
  private timer?: ReturnType<typeof setTimeout>;

  push(side: SideRecorder, chunk: Buffer, at: number): void {
    this.entries.push({ side, chunk, at });
    this.bytes += chunk.length;
    if (this.bytes > RECORD_BATCH_BYTES) return this.drain();
    this.timer ??= setTimeout(this.drain, RECORD_BATCH_MS);
  }

  /** Records everything queued now, in the order it came. */
  readonly drain = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.bytes = 0;
    if (this.entries.length === 0) return;
    const entries = this.entries;
    this.entries = [];
    for (const { side, chunk, at } of entries) side.take(chunk, at);
  };
}

/**
 * The recording's side of a direction: chunks queued (in the queue both directions share) with the
 * time they came, split into lines and handed to `onLine` in a batch after the relay wrote them.
 */
export class SideRecorder {
  private readonly splitter = new LineSplitter();

  constructor(
    private readonly onLine: (line: string, at: number) => void,
    private readonly onOverflow: (bytes: number) => void = () => undefined,
    private readonly queue: RecordingQueue = new RecordingQueue(),
  ) {}

  push(chunk: Buffer, at: number): void {
    this.queue.push(this, chunk, at);
  }

  /** Records everything queued now, both directions (before a line recorded directly, and at the end). */
  readonly drain = (): void => this.queue.drain();

  /** One queued chunk, recorded. */
  take(chunk: Buffer, at: number): void {
    const { lines, overflow } = this.splitter.push(chunk);
    if (overflow > 0) this.onOverflow(overflow);
    for (const line of lines) this.onLine(line, at);
  }

  /** A whole line that went on in line mode (what the pipeline wrote, or what it was given). */
  recordLine(line: string, at: number): void {
    this.drain();
    if (line.length > 0) this.onLine(line, at);
  }

  /** The stream ended: the queue and a last line without a newline. */
  end(): void {
    this.drain();
    const rest = this.splitter.flush();
    if (rest !== undefined) this.onLine(rest, now());
  }
}

export interface DirectionHooks {
  /** Writes bytes toward the other end exactly as they are. */
  forward(chunk: Buffer): void;
  /** Whether the frames of this chunk go through the pipeline (some enabled rule may apply). */
  lineMode(): boolean;
  /** Line mode: one whole line (no `\n`, no trailing `\r`), for the pipeline to carry out. */
  line(text: string, at: number): void;
}

/** A line this long without a newline is not held for the pipeline any more: it goes on as bytes. */
const MAX_HELD_LINE_BYTES = 64 * 1024 * 1024;
const NEWLINE = Buffer.from('\n');

export class DirectionRelay {
  /** Line mode: the start of a line whose newline has not come yet. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Byte mode wrote part of a line: the rest of it goes on as bytes too, whatever the mode. */
  private midLine = false;

  constructor(
    private readonly hooks: DirectionHooks,
    readonly side: SideRecorder,
  ) {}

  push(chunk: Buffer, at = now()): void {
    if (!this.hooks.lineMode()) {
      if (this.pendingBytes > 0) this.forwardRaw(this.takePending(), at);
      this.forwardRaw(chunk, at);
      return;
    }
    let start = 0;
    if (this.midLine) {
      const nl = chunk.indexOf(10);
      if (nl === -1) return this.forwardRaw(chunk, at);
      this.forwardRaw(chunk.subarray(0, nl + 1), at);
      start = nl + 1;
    }
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.pending.push(chunk.subarray(start, nl));
      this.pendingBytes += nl - start;
      const line = this.takePending();
      start = nl + 1;
      const text = line.toString('utf8');
      const bare = text.endsWith('\r') ? text.slice(0, -1) : text;
      // A blank line is no frame: it goes on as it came.
      if (bare.length === 0) this.forwardRaw(Buffer.concat([line, NEWLINE]), at);
      else this.hooks.line(bare, at);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > MAX_HELD_LINE_BYTES) this.forwardRaw(this.takePending(), at);
    }
  }

  /** Bytes of a line went on without its newline yet (a server that stops there leaves the host's line open). */
  get openLine(): boolean {
    return this.midLine;
  }

  /** The stream ended: a last line without a newline goes on as it came (it is no frame), then the recording's end. */
  end(): void {
    if (this.pendingBytes > 0) this.forwardRaw(this.takePending(), now());
    this.side.end();
  }

  private forwardRaw(chunk: Buffer, at: number): void {
    if (chunk.length === 0) return;
    this.hooks.forward(chunk);
    this.side.push(chunk, at);
    this.midLine = chunk[chunk.length - 1] !== 10;
  }

  private takePending(): Buffer {
    const buffer = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    return buffer;
  }
}
