/**
 * Fuzz (issue 8): nothing a server sends and nothing an authenticated page sends may take the
 * proxy down. Thousands of generated hostile frames go through a real stdio fixture
 * (e2e/fixtures/hostile-frames.mjs), thousands of generated page messages through the real
 * WebSocket; then the proxy must still answer: a fresh tab gets a snapshot, ping and tools/list
 * and a tool call round-trip, and every message the proxy sent was a valid wire envelope.
 *
 * Seeded: the seed is printed, and LOUPE_FUZZ_SEED=<n> replays a run.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { messagesOf, parseServerMessage, type ResponseMessage, type ServerMessage, type SessionInfo } from '../../../lib/wire/wire.ts';
import { jsonDepth } from '../../../lib/json/safe-json.ts';
import { launch, type RunningLoupe } from '../../launch.ts';
import { testUiRoot } from '../../testing/harness.ts';

const SEED = Number(process.env.LOUPE_FUZZ_SEED ?? Math.floor(Math.random() * 1e9));
const FIXTURE = fileURLToPath(new URL('../../../e2e/fixtures/hostile-frames.mjs', import.meta.url));
const GEN = fileURLToPath(new URL('../../../e2e/fixtures/hostile-gen.mjs', import.meta.url));
const CALLS = 500;
const LINES_PER_CALL = 3;
const BURSTS = 10;
const BURST_SIZE = 60;
const PAGE_MESSAGES = 3_000;

interface Gen {
  prng(seed: number): () => number;
  deepText(depth: number, kind?: 'object' | 'array', leaf?: string): string;
  valueText(random: () => number): string;
  hostileLine(random: () => number, ownId: unknown): string | Buffer;
}

/** A tab: counts what it gets, keeps responses and the last snapshot, never throws on what it reads. */
class Tab {
  readonly invalid: string[] = [];
  readonly responses = new Map<string, ResponseMessage>();
  snapshot?: Extract<ServerMessage, { type: 'snapshot' }>;
  readonly sessions = new Map<string, SessionInfo>();
  received = 0;
  frames = 0;
  errors = 0;
  private wake: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.take(data.toString()));
    ws.on('error', () => undefined);
  }

  static async open(loupe: RunningLoupe): Promise<Tab> {
    const ws = new WebSocket(`ws://127.0.0.1:${loupe.port}/ws?token=${loupe.token}`, { maxPayload: 1024 * 1024 * 1024 });
    const tab = new Tab(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return tab;
  }

  private take(text: string): void {
    this.received += 1;
    const parsed = parseServerMessage(text);
    if (!parsed.ok) this.invalid.push(`${parsed.error.slice(0, 300)} in ${text.slice(0, 200)}`);
    else for (const message of messagesOf(parsed.message)) this.note(message);
    for (const wake of this.wake.splice(0)) wake();
  }

  private note(message: ServerMessage): void {
    if (message.type === 'response') this.responses.set(message.id, message);
    else if (message.type === 'snapshot') {
      this.snapshot = message;
      for (const s of message.sessions) this.sessions.set(s.id, s);
    } else if (message.type === 'session') this.sessions.set(message.session.id, message.session);
    else if (message.type === 'error') this.errors += 1;
    else if (message.type === 'events') this.frames += message.events.filter((e) => e.kind === 'frame' && e.dir === 'in').length;
  }

  async until<T>(check: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`seed ${SEED}: timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.wake.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  send(text: string | Buffer, binary = false): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text, { binary });
  }

  async request(session: string, id: string, method: string, params: Record<string, unknown> = {}): Promise<ResponseMessage> {
    this.send(JSON.stringify({ type: 'request', session, id, method, params, timeoutMs: 15_000 }));
    return this.until(() => this.responses.get(id), `response ${id}`);
  }
}

const pick = <T,>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)];

/** One generated page message: mostly wrong, some right, some deep, some not text at all. */
function pageMessage(gen: Gen, random: () => number, session: string, n: number): { data: string | Buffer; binary?: boolean } {
  const id = `fz-${n}`;
  const value = () => gen.valueText(random);
  const sessionId = pick(random, [session, session, 's999', '', '__proto__']);
  switch (Math.floor(random() * 16)) {
    case 0: return { data: value() };
    case 1: return { data: `{"type":${pick(random, ['"nope"', '1', 'null', '{}', gen.deepText(9_000)])}}` };
    case 2: return { data: `{"type":"request","session":"${sessionId}","id":"${id}","method":${pick(random, ['"tools/call"', '"ping"', '"no/such"', '"tools/list"', '1'])},"params":${pick(random, ['{}', 'null', `{"name":"hostile","arguments":{"seed":${n},"index":${n},"lines":1}}`, `{"name":"echo","arguments":${gen.deepText(9_000)}}`, '{"_meta":{"progressToken":{}}}'])},"timeoutMs":${pick(random, ['300', '-1', '1e400', '"x"', '5000'])}}` };
    case 3: return { data: JSON.stringify({ type: 'send-raw', session: sessionId, id, text: pick(random, [`{"jsonrpc":"2.0","id":"${id}","method":"ping"}`, `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":${gen.deepText(9_000)}}`, '{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}', '[1,2]', 'null', '{"a":', `{\n"jsonrpc":"2.0",\n"id":"${id}",\n"method":"ping"\n}`, `{"jsonrpc":"2.0","id":"${id}","method":"echo","params":{"s":"\\ud800"}}`]), timeoutMs: 2_000 }) };
    case 4: return { data: `{"type":"send-raw","session":"${sessionId}","id":"${id}","message":${pick(random, ['{}', 'null', '[]', `{"jsonrpc":"2.0","id":${pick(random, ['{}', '[1]', 'null', '1e400', `"${id}"`])},"method":"ping"}`, gen.deepText(9_000)])},"timeoutMs":1000}` };
    case 5: return { data: `{"type":"cancel","session":"${sessionId}","id":${pick(random, [`"fz-${n - 1}"`, '1', 'null'])}}` };
    case 6: return { data: `{"type":"respond","session":"${sessionId}","requestId":"r${n}","outcome":${pick(random, ['{"ok":true,"result":{}}', '{"ok":false,"error":{"code":1,"message":"no"}}', '{"ok":"maybe"}', `{"ok":true,"result":${gen.deepText(9_000)}}`])}}` };
    case 7: return { data: `{"type":"set-roots","session":"${sessionId}","roots":${pick(random, ['[]', '[{"uri":"file:///tmp"}]', '[{"uri":1}]', 'null', `[{"uri":"file:///x","name":${value()}}]`])}}` };
    case 8: return { data: `{"type":"disconnect","session":${pick(random, ['"s999"', '1', 'null', '""'])}}` };
    // A connect the schema refuses: a fuzz must not start arbitrary programs.
    case 9: return { data: `{"type":"connect","config":${pick(random, ['null', '{}', '{"kind":"stdio"}', '{"kind":"http","url":1}', gen.deepText(9_000)])}}` };
    case 10: return { data: Buffer.from([0xff, 0xfe, 0x00, 0x01]), binary: true };
    case 11: return { data: pick(random, ['', ' ', '{', '"text"', '[]', '{"type":"request"', 'x'.repeat(200_000)]) };
    case 12: return { data: `{"type":"request","session":"${session}","id":"${id}","method":"tools/call","params":{"name":"echo","arguments":{"text":${value()}}},"__proto__":{"polluted":true}}` };
    case 13: return { data: `{"type":"request","type":"cancel","session":"${session}","id":"${id}","method":"ping"}` };
    case 14: return { data: gen.deepText(20_000, 'array') };
    default: return { data: `{"type":"send-raw","session":"${session}","id":"${id}","text":${JSON.stringify(`{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"hostile","arguments":{"seed":${n},"index":1,"lines":2}}}`)}}` };
  }
}

describe('fuzz: hostile frames and hostile page messages', () => {
  let loupe: RunningLoupe;
  let tab: Tab;
  let session: string;
  let gen: Gen;

  beforeAll(async () => {
    console.log(`fuzz seed ${SEED} (replay with LOUPE_FUZZ_SEED=${SEED})`);
    gen = (await import(GEN)) as Gen;
    loupe = await launch({ port: 0, uiRoot: testUiRoot() });
    tab = await Tab.open(loupe);
    tab.send(JSON.stringify({ type: 'connect', config: { kind: 'stdio', command: process.execPath, args: [FIXTURE], env: {} }, serverRequestTimeoutMs: 300 }));
    const connected = await tab.until(() => [...tab.sessions.values()].find((s) => s.status === 'connected' || s.status === 'failed'), 'the session');
    expect(connected.error).toBeUndefined();
    session = connected.id;
  });

  afterAll(async () => {
    tab?.ws.close();
    await loupe?.close();
  });

  it('relays a 20,000-deep result as its exact text, and sends a 9,000-deep request exactly', { timeout: 120_000 }, async () => {
    const deep = await tab.request(session, 'deep-1', 'tools/call', { name: 'deep', arguments: { depth: 20_000 } });
    expect(deep.ok).toBe(true);
    const result = (deep as { result: { structuredContent: unknown; content: Array<{ text: string }> } }).result;
    expect(jsonDepth(result.structuredContent)).toBe(20_000);
    expect(result.content[0].text).toBe(gen.deepText(20_000));
    const text = `{"jsonrpc":"2.0","id":"deep-raw","method":"tools/call","params":{"name":"echo","arguments":{"text":"through"},"deep":${gen.deepText(9_000)}}}`;
    tab.send(JSON.stringify({ type: 'send-raw', session, id: 'deep-raw-1', text, origin: 'composer' }));
    const answer = await tab.until(() => tab.responses.get('deep-raw-1'), 'the deep send-raw');
    expect(answer).toMatchObject({ ok: true, rpcId: 'deep-raw', result: { content: [{ type: 'text', text: 'echo: through' }] } });
  });

  it(`relays ${CALLS * LINES_PER_CALL + BURSTS * BURST_SIZE} generated server frames and keeps answering`, { timeout: 180_000 }, async () => {
    const random = gen.prng(SEED);
    const window = 16;
    for (let start = 0; start < CALLS; start += window) {
      const calls = [];
      for (let i = start; i < Math.min(CALLS, start + window); i += 1) {
        calls.push(tab.request(session, `call-${i}`, 'tools/call', { name: 'hostile', arguments: { seed: SEED, index: i, lines: LINES_PER_CALL } }));
      }
      const answers = await Promise.all(calls);
      // Each call ends with the fixture's valid answer, unless a generated frame with its id came first.
      expect(answers.every((a) => a.type === 'response'), `seed ${SEED}`).toBe(true);
    }
    for (let b = 0; b < BURSTS; b += 1) {
      await tab.request(session, `burst-${b}`, 'tools/call', { name: 'burst', arguments: { seed: SEED + Math.floor(random() * 1e6), count: BURST_SIZE } });
    }
    await assertAlive(loupe, session, tab, 'after the server frames');
  });

  it(`survives ${PAGE_MESSAGES} generated page messages`, { timeout: 180_000 }, async () => {
    const random = gen.prng(SEED + 1);
    for (let n = 0; n < PAGE_MESSAGES; n += 1) {
      const { data, binary } = pageMessage(gen, random, session, n);
      tab.send(data, binary);
      if (n % 100 === 99) await tab.request(session, `pace-${n}`, 'ping');
    }
    // A text frame that is not UTF-8: the WebSocket closes that socket (1007); the proxy goes on.
    const rude = await Tab.open(loupe);
    const closed = new Promise<number>((resolve) => rude.ws.once('close', (code) => resolve(code)));
    rude.ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect(await closed).toBe(1007);
    await assertAlive(loupe, session, tab, 'after the page messages');
  });
});

async function assertAlive(loupe: RunningLoupe, session: string, tab: Tab, when: string): Promise<void> {
  const fresh = await Tab.open(loupe);
  try {
    const snapshot = await fresh.until(() => fresh.snapshot, `a snapshot ${when}`);
    const info = snapshot.sessions.find((s) => s.id === session);
    expect(info?.status, `seed ${SEED} ${when}: ${JSON.stringify(info?.error)}`).toBe("connected");
    const ping = await fresh.request(session, `alive-ping-${when}`, 'ping');
    expect(ping.ok, `seed ${SEED}: ping ${when}`).toBe(true);
    const list = await fresh.request(session, `alive-list-${when}`, 'tools/list');
    expect((list as { result?: { tools?: unknown[] } }).result?.tools?.length, `seed ${SEED}: tools/list ${when}`).toBe(4);
    const echo = await fresh.request(session, `alive-echo-${when}`, 'tools/call', { name: 'echo', arguments: { text: 'alive' } });
    expect(echo, `seed ${SEED}: tools/call ${when}`).toMatchObject({ ok: true, result: { content: [{ type: 'text', text: 'echo: alive' }] } });
    expect(tab.invalid.slice(0, 3).map((s) => s.slice(0, 700)), `seed ${SEED}: every proxy message is a valid envelope`).toEqual([]);
  } finally {
    fresh.ws.close();
  }
}
