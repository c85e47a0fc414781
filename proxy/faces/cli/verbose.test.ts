/**
 * `--cli --verbose --filter QUERY` (issue 26) against the real server-everything: the frame print
 * keeps only what the History query lets through; a bad query is a usage error (exit 2) in the
 * parser's words.
 */
import { describe, expect, it } from 'vitest';
import { EVERYTHING, runCli } from '../../testing/headless.ts';
import { verbosePrinter } from './verbose.ts';

const run = runCli;

const frames = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('→ ') || line.startsWith('← ')).map((line) => ({ dir: line[0], message: JSON.parse(line.slice(2)) as { id?: number; method?: string; result?: unknown } }));

describe('mcp-loupe --cli --verbose --filter', () => {
  it('prints only the frames the query matches, and exits as without it', async () => {
    const all = await run(['--cli', '--verbose', '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=hi', ...EVERYTHING]);
    expect(all.code).toBe(0);
    expect(frames(all.stderr).map((f) => f.message.method)).toContain('initialize');
    const some = await run(['--cli', '--verbose', '--filter', 'method:tools/call -dir:out', '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=hi', ...EVERYTHING]);
    expect(some.code).toBe(0);
    expect(JSON.parse(some.stdout).content[0].text).toBe('Echo: hi');
    const printed = frames(some.stderr);
    // Only the answer of the call: no initialize, no request going out, no notification.
    expect(printed).toHaveLength(1);
    expect(printed[0].dir).toBe('←');
    expect(JSON.stringify(printed[0].message.result)).toContain('Echo: hi');
    expect(some.stderr).not.toContain('"method":"initialize"');
  });

  it('a bad query exits 2 with the parser\'s sentence; --filter needs --verbose', async () => {
    const bad = await run(['--cli', '--verbose', '--filter', 'colour:red', '--method', 'tools/list', ...EVERYTHING]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--filter: Unknown field "colour" at character 1: the fields are method, status, duration, server, dir, size, kind, tool, id, text.');
    const alone = await run(['--cli', '--filter', 'kind:request', '--method', 'tools/list', ...EVERYTHING]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe('--filter chooses the frames --verbose prints: add --verbose.');
  });

  it('judges rows with the page\'s parser: server, text, stderr', () => {
    let out = '';
    const print = verbosePrinter('server:everything "needle"', 'everything', (t) => void (out += t));
    print({ session: 's', seq: 1, ts: 1, kind: 'stderr', text: 'a needle in stderr' });
    print({ session: 's', seq: 2, ts: 2, kind: 'stderr', text: 'nothing' });
    expect(out).toBe('stderr| a needle in stderr\n');
  });
});
