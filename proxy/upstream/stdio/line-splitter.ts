/**
 * Splits a byte stream into newline-delimited lines (the MCP stdio framing:
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio).
 *
 * Written here rather than reusing the SDK's ReadBuffer because that one parses as it splits and
 * throws away lines that are not JSON-RPC; Loupe must keep them as "stdout noise". Chunks are kept
 * as a list and joined once per line, so a 50 MB message costs one copy, not one per chunk.
 */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxLineBytes = 512 * 1024 * 1024) {}

  /** Feeds a chunk; returns the complete lines it finished (without `\n` or a trailing `\r`). */
  push(chunk: Buffer): { lines: string[]; overflow: number } {
    const lines: string[] = [];
    let overflow = 0;
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.chunks.push(chunk.subarray(start, nl));
      lines.push(this.take());
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.chunks.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxLineBytes) {
        overflow = this.pendingBytes;
        this.chunks = [];
        this.pendingBytes = 0;
      }
    }
    return { lines: lines.filter((line) => line.length > 0), overflow };
  }

  /** Whatever is left when the stream ends (a last line without a newline). */
  flush(): string | undefined {
    if (this.chunks.length === 0) return undefined;
    const rest = this.take();
    return rest.length > 0 ? rest : undefined;
  }

  private take(): string {
    const buffer = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.chunks = [];
    this.pendingBytes = 0;
    let text = buffer.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    return text;
  }
}
