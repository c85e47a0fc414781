/**
 * The Prompts tab's state for one session's current connection: the selected prompt, the argument values
 * typed for each prompt, and the latest `prompts/get`.
 */
import { promptArguments } from '../../lib/content/prompt-messages.ts';
import type { RequestOutcome } from '../_wire/request-outcome.ts';
import type { SessionPort } from '../_wire/session-port.ts';
import { currentConnection } from '../_session/scoped.ts';
import { ExternalStore } from './external-store.ts';

export interface PromptGet {
  name: string;
  args: Record<string, string>;
  status: 'loading' | 'done';
  outcome?: RequestOutcome;
  seq: number;
}

export interface PromptState {
  connection?: string;
  /** Index into the prompt list (names may repeat). */
  selected?: { name: string; index: number };
  values: Readonly<Record<string, Readonly<Record<string, string>>>>;
  get?: PromptGet;
}

const EMPTY: PromptState = { values: {} };

export class PromptStore extends ExternalStore<PromptState> {
  private gets = 0;

  constructor(private readonly port: SessionPort) {
    super(EMPTY);
    const follow = () => {
      const key = currentConnection(port)?.key;
      // The typed values and the selection outlive a reconnect; the last get does not.
      if (key !== this.state.connection) this.set({ ...this.state, connection: key, get: undefined });
    };
    this.onDispose(port.subscribe(follow));
    follow();
  }

  select(name: string, index: number): void {
    this.set({ ...this.state, selected: { name, index } });
  }

  setValue(prompt: string, argument: string, value: string): void {
    const values = { ...this.state.values, [prompt]: { ...this.state.values[prompt], [argument]: value } };
    this.set({ ...this.state, values });
  }

  /** `prompts/get` with the values typed so far (empty ones left out). */
  async get(name: string): Promise<void> {
    const now = currentConnection(this.port);
    if (!now) return;
    const seq = ++this.gets;
    const args = promptArguments(this.state.values[name] ?? {});
    this.set({ ...this.state, get: { name, args, status: 'loading', seq } });
    const outcome = await this.port.request('prompts/get', { name, arguments: args });
    if (this.state.get?.seq !== seq) return;
    this.set({ ...this.state, get: { ...this.state.get, status: 'done', outcome } });
  }
}
