/**
 * Loupe's side of `mcp-loupe --tap` (issue 13): a tap process on `/tap?token=…` (server.ts checked
 * the token, Host and Origin) becomes a relay session in the engine. Its events go into the
 * session's trace with the tap's timestamps, the links between them (an intervention's `of`, a
 * frame's `intervention`) moved to this trace's numbers; the engine's rules go to the tap now and
 * on every change; the tap's held frames wait in the engine's hold broker like any other. The
 * protocol is lib/wire/tap.ts; a tap that sends something else gets a warning in its session's
 * trace, never a crash.
 */
import type { WebSocket } from 'ws';
import type { TraceEvent } from '../../../lib/wire/wire.ts';
import { parseTapMessage, TAP_PROTOCOL, TapHelloSchema, TapToLoupeSchema, type LoupeToTap, type TapHello, type TapToLoupe } from '../../../lib/wire/tap.ts';
import type { Engine } from '../../engine/engine.ts';
import type { Session } from '../../session/session.ts';
import type { TraceEventInput } from '../../pipeline/trace-recorder.ts';

/** A tap that has not said hello by then is not one. */
const HELLO_WAIT_MS = 10_000;
/** The tap's seq → ours, for the events a later one may point to (recent ones: older links are rare). */
const MAX_LINKS = 10_000;

export function acceptTap(engine: Engine, ws: WebSocket): void {
  let tap: AcceptedTap | undefined;
  const timer = setTimeout(() => ws.close(1008, 'The tap did not say hello'), HELLO_WAIT_MS);
  ws.on('error', () => undefined); // the close that follows ends the session
  ws.on('message', (data, isBinary) => {
    const text = isBinary ? '' : String(data);
    if (tap) return tap.receive(text);
    clearTimeout(timer);
    const hello = parseTapMessage(TapHelloSchema, text);
    if (!hello.ok) return ws.close(1008, 'The first message of a tap must be its hello');
    if (hello.value.protocol !== TAP_PROTOCOL) {
      send(ws, { type: 'welcome', protocol: TAP_PROTOCOL, session: '' });
      return ws.close(1008, 'Another tap protocol version');
    }
    tap = new AcceptedTap(engine, ws, hello.value);
  });
  ws.on('close', () => {
    clearTimeout(timer);
    tap?.closed();
  });
}

function send(ws: WebSocket, message: LoupeToTap): void {
  if (ws.readyState !== ws.OPEN) return;
  try {
    ws.send(JSON.stringify(message));
  } catch {
    // Closing under us: the close handler ends the session.
  }
}

class AcceptedTap {
  private readonly session: Session;
  private readonly links = new Map<number, number>();
  private exit?: { code: number | null; signal: string | null };
  private stopped = false;
  private rulesVersion = 0;
  private lastName?: string;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly engine: Engine,
    private readonly ws: WebSocket,
    hello: TapHello,
  ) {
    const name = hello.label ?? [hello.command.split(/[\\/]/).pop() ?? hello.command, ...hello.args.slice(0, 1).map((a) => a.split(/[\\/]/).pop())].join(' ');
    this.session = engine.openRelay({
      kind: 'tap',
      config: { kind: 'stdio', name, command: hello.command, args: hello.args, env: {} },
      label: hello.label,
      pid: hello.pid,
      transport: 'stdio',
      stop: async () => {
        this.stopped = true;
        send(ws, { type: 'detach', message: "Loupe stopped watching this session; the host's session goes on." });
        ws.close(1000);
      },
    });
    this.session.trace.record({ kind: 'transport', level: 'info', message: `A tap attached: ${[hello.command, ...hello.args].join(' ')} (pid ${hello.pid}, mcp-loupe ${hello.version})` });
    send(ws, { type: 'welcome', protocol: TAP_PROTOCOL, session: this.session.id });
    this.pushRules();
    this.unsubscribe = engine.on((event) => {
      if (event.type === 'rules') this.pushRules();
      // Rules scoped to a server match by the session's name, which the host's clientInfo may change.
      else if (event.type === 'session' && event.session.id === this.session.id && event.session.name !== this.lastName) this.pushRules();
    });
  }

  private serverName(): string {
    return this.engine.pipelineContext(this.session).server();
  }

  private pushRules(): void {
    this.lastName = this.serverName();
    send(this.ws, { type: 'rules', version: ++this.rulesVersion, rules: this.engine.rules, server: this.lastName });
  }

  receive(text: string): void {
    const parsed = parseTapMessage<TapToLoupe>(TapToLoupeSchema, text);
    if (!parsed.ok) {
      this.session.trace.record({ kind: 'transport', level: 'warn', message: `The tap sent a message Loupe does not understand (${parsed.error}); it was ignored.` });
      return;
    }
    const message = parsed.value;
    if (message.type === 'events') {
      for (const event of message.events) this.record(event);
      if (message.dropped) this.session.trace.record({ kind: 'transport', level: 'warn', message: `The tap could not pass on ${message.dropped} events (Loupe was not attached yet, or was too slow): they are in its --record file only.` });
    } else if (message.type === 'hold') {
      const { id, type: _type, ...request } = message;
      void _type;
      void this.engine.holds.hold({ session: this.session.id, ...request }).then((outcome) => send(this.ws, { type: 'hold-outcome', id, ...outcome }));
    } else {
      this.session.trace.record({ kind: 'transport', level: 'warn', message: 'The tap said hello twice; the second was ignored.' });
    }
  }

  /** One tap event into this trace, at the tap's time, its links moved to this trace's numbers. */
  private record(event: TraceEvent): void {
    const { session: _session, seq, ts, ...rest } = event;
    void _session;
    const input = { ...rest } as TraceEventInput & { of?: number; intervention?: number };
    if (input.of !== undefined) input.of = this.links.get(input.of) ?? input.of;
    if (input.intervention !== undefined) input.intervention = this.links.get(input.intervention) ?? input.intervention;
    const recorded = this.session.trace.record(input, ts);
    this.links.set(seq, recorded.seq);
    if (this.links.size > MAX_LINKS) this.links.delete(this.links.keys().next().value!);
    if (event.kind === 'exit') this.exit = { code: event.code, signal: event.signal };
  }

  /** The tap's connection ended: the session ends, in words saying why. */
  closed(): void {
    this.unsubscribe();
    const exit = this.exit;
    if (exit) {
      const clean = exit.code === 0 && !exit.signal;
      const message = exit.signal ? `The server was killed by ${exit.signal}.` : `The server exited with code ${exit.code}.`;
      this.session.endRelay(clean ? undefined : { code: 'EXITED', message, detail: { exitCode: exit.code, signal: exit.signal } });
      return;
    }
    if (this.stopped) return this.session.endRelay();
    this.session.endRelay({ code: 'SESSION_ENDED', message: "The tap detached: the host's session may go on, but Loupe no longer sees it.", hint: 'Restart the host (or its server) to show the session again.' });
  }
}
