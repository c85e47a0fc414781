/**
 * One direction of the tap (tap-relay.ts): bytes go on exactly as they came, the recording sees
 * every line once, and switching between byte mode and line mode (rules coming and going) never
 * splits or repeats a line.
 */
import { describe, expect, it } from 'vitest';
import { DirectionRelay, RECORD_BATCH_MS, RecordingQueue, SideRecorder } from './relay.ts';

function relay() {
  const out: Buffer[] = [];
  const lines: string[] = [];
  const recorded: string[] = [];
  const state = { lineMode: false };
  const r = new DirectionRelay(
    {
      forward: (chunk) => void out.push(Buffer.from(chunk)),
      lineMode: () => state.lineMode,
      line: (text) => {
        lines.push(text);
        // What a pipeline that passes everything does: the line goes on with its newline.
        out.push(Buffer.from(`${text}\n`));
        r.side.recordLine(text, 0);
      },
    },
    new SideRecorder((line) => recorded.push(line)),
  );
  return { r, out, lines, recorded, state, text: () => Buffer.concat(out).toString('utf8') };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, RECORD_BATCH_MS + 5));

describe('RecordingQueue', () => {
  it('records both directions in one batch, in the order the chunks came (the wire order, not one side then the other)', async () => {
    const queue = new RecordingQueue();
    const recorded: string[] = [];
    const out = new SideRecorder((line) => recorded.push(`out ${line}`), undefined, queue);
    const back = new SideRecorder((line) => recorded.push(`in ${line}`), undefined, queue);
    out.push(Buffer.from('{"id":1}\n'), 0);
    back.push(Buffer.from('{"id":1,"result":{}}\n'), 0);
    out.push(Buffer.from('{"id":2}\n'), 0);
    expect(recorded).toEqual([]);
    await tick();
    expect(recorded).toEqual(['out {"id":1}', 'in {"id":1,"result":{}}', 'out {"id":2}']);
  });

  it('records at once, whatever the wait, when a line is recorded directly or the queue holds over a megabyte', () => {
    const queue = new RecordingQueue();
    const recorded: string[] = [];
    const side = new SideRecorder((line) => recorded.push(line.slice(0, 10)), undefined, queue);
    side.push(Buffer.from('{"id":1}\n'), 0);
    side.recordLine('{"id":2}', 0);
    expect(recorded).toEqual(['{"id":1}', '{"id":2}']);
    side.push(Buffer.from(`"${'x'.repeat(1024 * 1024)}"\n`), 0);
    expect(recorded).toHaveLength(3);
  });
});

describe('DirectionRelay', () => {
  it('copies chunks as they come in byte mode and records their lines after the copy', async () => {
    const { r, out, recorded } = relay();
    const chunks = ['{"a":1}\n{"b":', '2}\r\nnot json\n', Buffer.from('{"c":"é"}\n').subarray(0, 8).toString('latin1')];
    r.push(Buffer.from(chunks[0]));
    r.push(Buffer.from(chunks[1]));
    expect(out.map((b) => b.toString())).toEqual([chunks[0], chunks[1]]);
    // Nothing is split or parsed on the way: the recording comes a turn later.
    expect(recorded).toEqual([]);
    await tick();
    expect(recorded).toEqual(['{"a":1}', '{"b":2}', 'not json']);
  });

  it('keeps a multi-byte character split over two chunks whole', async () => {
    const { r, out, recorded } = relay();
    const bytes = Buffer.from('{"c":"é€"}\n');
    r.push(bytes.subarray(0, 7));
    r.push(bytes.subarray(7));
    expect(Buffer.concat(out).equals(bytes)).toBe(true);
    await tick();
    expect(recorded).toEqual(['{"c":"é€"}']);
  });

  it('finishes a line begun in byte mode as bytes when the rules come, and sends the next ones by line', async () => {
    const h = relay();
    h.r.push(Buffer.from('{"first":'));
    h.state.lineMode = true;
    h.r.push(Buffer.from('1}\n{"second":2}\n{"thi'));
    h.r.push(Buffer.from('rd":3}\n'));
    expect(h.text()).toBe('{"first":1}\n{"second":2}\n{"third":3}\n');
    expect(h.lines).toEqual(['{"second":2}', '{"third":3}']);
    await tick();
    expect(h.recorded).toEqual(['{"first":1}', '{"second":2}', '{"third":3}']);
  });

  it('writes out a line held for the pipeline as it came when the rules go, and never twice', async () => {
    const h = relay();
    h.state.lineMode = true;
    h.r.push(Buffer.from('{"one":1}\n{"two"'));
    h.state.lineMode = false;
    h.r.push(Buffer.from(':2}\n{"three":3}\n'));
    expect(h.text()).toBe('{"one":1}\n{"two":2}\n{"three":3}\n');
    expect(h.lines).toEqual(['{"one":1}']);
    await tick();
    expect(h.recorded).toEqual(['{"one":1}', '{"two":2}', '{"three":3}']);
  });

  it('passes blank lines on as they are in line mode and records a last line without a newline at the end', async () => {
    const h = relay();
    h.state.lineMode = true;
    h.r.push(Buffer.from('\n\r\n{"x":1}\n{"tail":true}'));
    h.r.end();
    expect(h.text()).toBe('\n\r\n{"x":1}\n{"tail":true}');
    expect(h.lines).toEqual(['{"x":1}']);
    expect(h.recorded).toEqual(['{"x":1}', '{"tail":true}']);
  });
});
