/**
 * The user's standing choices for playing the client's part, remembered in this browser:
 * what to declare on the next connect, how long a server request may wait, saved sampling replies,
 * and roots for a connection that has no session yet.
 */
import { DEFAULT_CHOICE, readChoice } from '../../lib/client/capabilities.ts';
import { parsePresets, savePreset, type SamplingDraft, type SamplingPreset } from '../../lib/client/sampling.ts';
import type { ClientCapabilityChoice, Root } from '../../lib/wire/wire.ts';
import { ExternalStore } from './external-store.ts';

export interface ClientSettings {
  choice: ClientCapabilityChoice;
  /** Seconds a server→client request may wait for the user; undefined = the proxy's default. */
  timeoutSeconds?: number;
  presets: readonly SamplingPreset[];
  /** Roots to send with the first connect, when there is no session to hold them. */
  roots: readonly Root[];
}

const KEY = 'mcp-loupe.client-settings';
const PRESETS_KEY = 'mcp-loupe.sampling-presets';

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

function readRoots(value: unknown): Root[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((r) => (r !== null && typeof r === 'object' && typeof (r as Root).uri === 'string' ? [{ uri: (r as Root).uri, ...(typeof (r as Root).name === 'string' ? { name: (r as Root).name } : {}) }] : []));
}

function load(): ClientSettings {
  const store = storage();
  let saved: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(store?.getItem(KEY) ?? '{}');
    if (parsed !== null && typeof parsed === 'object') saved = parsed as Record<string, unknown>;
  } catch {
    saved = {};
  }
  const timeout = typeof saved.timeoutSeconds === 'number' && saved.timeoutSeconds > 0 ? saved.timeoutSeconds : undefined;
  return { choice: readChoice(saved.choice), timeoutSeconds: timeout, presets: parsePresets(store?.getItem(PRESETS_KEY)), roots: readRoots(saved.roots) };
}

export class ClientSettingsStore extends ExternalStore<ClientSettings> {
  constructor() {
    super({ choice: DEFAULT_CHOICE, presets: [], roots: [] });
  }

  /** Read what this browser remembered (after hydration, so the first render matches the export). */
  start(): void {
    this.set(load());
  }

  /** Remember the choice made for a connect. */
  rememberConnect(choice: ClientCapabilityChoice, timeoutSeconds: number | undefined): void {
    this.set({ ...this.state, choice, timeoutSeconds }, true);
  }

  setRoots(roots: readonly Root[]): void {
    this.set({ ...this.state, roots }, true);
  }

  savePreset(name: string, draft: SamplingDraft): void {
    this.set({ ...this.state, presets: savePreset(this.state.presets, name, draft) }, true);
  }

  removePreset(name: string): void {
    this.set({ ...this.state, presets: this.state.presets.filter((p) => p.name !== name) }, true);
  }

  /** `persist`: remember it in this browser too. */
  protected override set(next: ClientSettings, persist = false): void {
    if (persist) {
      try {
        const { presets, ...rest } = next;
        storage()?.setItem(KEY, JSON.stringify(rest));
        storage()?.setItem(PRESETS_KEY, JSON.stringify(presets));
      } catch {
        // Storage full or forbidden: the settings still hold for this page.
      }
    }
    super.set(next);
  }
}
