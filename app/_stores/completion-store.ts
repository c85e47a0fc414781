/**
 * Suggestions for prompt arguments and template variables from `completion/complete`, asked as
 * the user types (debounced; an answer to an older value is dropped). Only asked when the server
 * declared the `completions` capability.
 */
import { completionParams, readCompletions, type CompletionRef, type Completions } from '../../lib/client/completion.ts';
import { describeFailure } from '../../lib/client/outcome-text.ts';
import type { SessionPort } from '../_wire/session-port.ts';
import { currentConnection } from '../_session/scoped.ts';
import { ExternalStore } from './external-store.ts';

export interface CompletionEntry extends Completions {
  loading: boolean;
  error?: string;
  /** The value the suggestions are for. */
  forValue?: string;
}

const DEBOUNCE_MS = 150;

export function completionKey(ref: CompletionRef, name: string): string {
  return `${ref.type}\u0000${ref.type === 'ref/prompt' ? ref.name : ref.uri}\u0000${name}`;
}

export class CompletionStore extends ExternalStore<Readonly<Record<string, CompletionEntry>>> {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly latest = new Map<string, number>();
  private seq = 0;

  constructor(private readonly port: SessionPort) {
    super({});
  }

  /** Whether the current connection's server offers completions. */
  supported(): boolean {
    const capabilities = currentConnection(this.port)?.session.capabilities;
    return capabilities !== undefined && 'completions' in capabilities;
  }

  query(ref: CompletionRef, name: string, value: string, others: Readonly<Record<string, string>>): void {
    if (!this.supported()) return;
    const key = completionKey(ref, name);
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => void this.ask(key, ref, name, value, others), DEBOUNCE_MS));
  }

  override dispose(): void {
    super.dispose();
    this.timers.forEach((t) => clearTimeout(t));
    this.timers.clear();
  }

  private async ask(key: string, ref: CompletionRef, name: string, value: string, others: Readonly<Record<string, string>>): Promise<void> {
    this.timers.delete(key);
    const now = currentConnection(this.port);
    if (!now) return;
    const seq = ++this.seq;
    this.latest.set(key, seq);
    const previous = this.state[key];
    this.put(key, { values: previous?.values ?? [], hasMore: false, loading: true, forValue: previous?.forValue });
    const outcome = await this.port.request('completion/complete', completionParams(ref, name, value, others));
    if (this.latest.get(key) !== seq) return;
    if (!outcome.ok) this.put(key, { values: [], hasMore: false, loading: false, error: describeFailure(outcome.error), forValue: value });
    else this.put(key, { ...readCompletions(outcome.result), loading: false, forValue: value });
  }

  private put(key: string, entry: CompletionEntry): void {
    this.set({ ...this.state, [key]: entry });
  }
}
