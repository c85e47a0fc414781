/**
 * The Playground's API keys (issue 15), which live in the proxy only: those of Loupe's environment
 * (ANTHROPIC_API_KEY, OPENAI_API_KEY, …), named by `env:NAME`, and those typed into a page, held in
 * this process's memory and named by `memory:<random id>`. The page learns names and references,
 * never a value; a restart forgets every typed key (the page then asks for it again).
 *
 * A typed key is bound to the origin of the base URL it was typed for, so that a changed base URL
 * cannot carry it to another host. A key from the environment named for a provider
 * (`OPENAI_API_KEY`, …, ENV_KEYS) goes to that provider's own API only (its https origin), with a
 * reference or without: the user put it in the environment for that provider and never typed it
 * for any other endpoint, so a base URL changed to a local server, a proxy or a look-alike host
 * must not receive it (the README promises as much). For another endpoint the key is typed in the
 * page, where it is bound to that endpoint's origin. A variable named for no provider
 * (`env:MY_GATEWAY_API_KEY`) names no host, and goes where its reference is used.
 */
import { randomBytes } from 'node:crypto';
import type { ProviderConfig, ProviderKind } from '../../lib/playground/types.ts';
import { ANTHROPIC_BASE_URL, OPENAI_BASE_URL } from '../../lib/providers/base-urls.ts';
import type { EnvKey, MemoryKey, PlaygroundError, PlaygroundKeys } from '../../lib/wire/playground.ts';

/** The providers whose keys Loupe looks for in its environment, by the host of their API. */
export const ENV_KEYS: readonly EnvKey[] = [
  { name: 'ANTHROPIC_API_KEY', provider: 'anthropic', label: 'Anthropic', baseUrl: 'https://api.anthropic.com/v1' },
  { name: 'OPENAI_API_KEY', provider: 'openai-compatible', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1' },
  { name: 'DEEPSEEK_API_KEY', provider: 'openai-compatible', label: 'DeepSeek', baseUrl: 'https://api.deepseek.com/v1' },
  { name: 'OPENROUTER_API_KEY', provider: 'openai-compatible', label: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1' },
  { name: 'GROQ_API_KEY', provider: 'openai-compatible', label: 'Groq', baseUrl: 'https://api.groq.com/openai/v1' },
  { name: 'MISTRAL_API_KEY', provider: 'openai-compatible', label: 'Mistral', baseUrl: 'https://api.mistral.ai/v1' },
];

/** `env:NAME` may name any variable that looks like an API key, not any variable at all (PATH, a cloud secret). */
const ENV_REF = /^env:([A-Z][A-Z0-9_]*_API_KEY)$/;
const MEMORY_REF = /^memory:[A-Za-z0-9_-]+$/;
/** Far above any provider's key; a paste of something else is refused rather than sent. */
const MAX_KEY_CHARS = 4096;

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The environment variable whose key a provider uses when its settings name none (an empty base URL is the provider's own API). */
export function envNameFor(kind: ProviderKind, baseUrl: string): string | undefined {
  const host = baseUrl.trim() === '' ? undefined : hostOf(baseUrl);
  if (kind === 'anthropic') return host === undefined || host === 'api.anthropic.com' ? 'ANTHROPIC_API_KEY' : undefined;
  if (host === undefined) return baseUrl.trim() === '' ? 'OPENAI_API_KEY' : undefined;
  return ENV_KEYS.find((k) => k.provider === 'openai-compatible' && hostOf(k.baseUrl) === host)?.name;
}

export type KeyLookup = { ok: true; key: string | undefined } | { ok: false; error: PlaygroundError };

interface HeldKey {
  key: string;
  provider: ProviderKind;
  origin: string;
}

export class KeyStore {
  private readonly held = new Map<string, HeldKey>();

  constructor(private readonly env: Readonly<Record<string, string | undefined>> = process.env) {}

  /** Which of the known variables are set (names only). */
  state(): PlaygroundKeys {
    const env = ENV_KEYS.filter((k) => this.envValue(k.name) !== undefined);
    const memory: MemoryKey[] = [...this.held.entries()].map(([apiKeyRef, h]) => ({ apiKeyRef, provider: h.provider, origin: h.origin }));
    return { env, memory };
  }

  /** Holds a typed key for `baseUrl`'s origin; the answer is its reference or why not. */
  set(provider: ProviderKind, baseUrl: string, key: string): { ok: true; apiKeyRef: string } | { ok: false; error: PlaygroundError } {
    const trimmed = key.trim();
    const origin = originOf(baseUrl.trim() === '' ? defaultBaseUrl(provider) : baseUrl);
    if (origin === undefined) return { ok: false, error: { code: 'BAD_REQUEST', message: `The base URL ${JSON.stringify(baseUrl.slice(0, 200))} is not an http or https URL: correct it, then type the key again.` } };
    if (trimmed === '') return { ok: false, error: { code: 'BAD_REQUEST', message: 'The API key is empty: paste the key, or leave it out for a server that takes none.' } };
    // Keys are visible ASCII; anything else would be refused by fetch later, in words of its own.
    if (trimmed.length > MAX_KEY_CHARS || /[^\x21-\x7e]/.test(trimmed)) {
      return { ok: false, error: { code: 'BAD_REQUEST', message: 'That does not look like an API key (it has spaces, line breaks or unusual characters, or is very long): paste the key alone.' } };
    }
    const apiKeyRef = `memory:${randomBytes(12).toString('base64url')}`;
    this.held.set(apiKeyRef, { key: trimmed, provider, origin });
    return { ok: true, apiKeyRef };
  }

  forget(apiKeyRef: string): boolean {
    return this.held.delete(apiKeyRef);
  }

  /** The key a call with these settings uses (none: a local server that takes none), or why it cannot be had. */
  resolve(config: Pick<ProviderConfig, 'kind' | 'baseUrl' | 'apiKeyRef'>): KeyLookup {
    const ref = config.apiKeyRef?.trim();
    if (ref === undefined || ref === '') {
      // Picked by host; sent only where its origin is the provider's own too (not over plain http).
      const name = envNameFor(config.kind, config.baseUrl);
      return { ok: true, key: name === undefined || envKeyElsewhere(name, config) ? undefined : this.envValue(name) };
    }
    const env = ENV_REF.exec(ref);
    if (env) {
      const value = this.envValue(env[1]);
      if (value === undefined) return { ok: false, error: { code: 'NO_KEY', message: `${env[1]} is not set in Loupe's environment: set it and restart Loupe, or type the key into the page.` } };
      const refused = envKeyElsewhere(env[1], config);
      return refused ? { ok: false, error: refused } : { ok: true, key: value };
    }
    if (MEMORY_REF.test(ref)) {
      const held = this.held.get(ref);
      if (held === undefined) return { ok: false, error: { code: 'NO_KEY', message: 'Loupe no longer holds the API key typed for this provider (it was forgotten, or Loupe was restarted): type it again.' } };
      const origin = originOf(config.baseUrl.trim() === '' ? defaultBaseUrl(config.kind) : config.baseUrl);
      if (origin !== held.origin) return { ok: false, error: { code: 'NO_KEY', message: `The API key was typed for ${held.origin}, and the base URL now points elsewhere: type the key again for the new base URL.` } };
      return { ok: true, key: held.key };
    }
    return { ok: false, error: { code: 'NO_KEY', message: `Loupe does not know the key reference ${JSON.stringify(ref.slice(0, 100))}: choose a key from the environment or type one.` } };
  }

  private envValue(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }
}

/** Why a provider's key from the environment may not go to this base URL; undefined when it may. */
function envKeyElsewhere(name: string, config: Pick<ProviderConfig, 'kind' | 'baseUrl'>): PlaygroundError | undefined {
  const own = ENV_KEYS.find((k) => k.name === name);
  if (!own) return undefined;
  const target = originOf(config.baseUrl.trim() === '' ? defaultBaseUrl(config.kind) : config.baseUrl);
  const home = originOf(own.baseUrl);
  if (target === home) return undefined;
  return {
    code: 'NO_KEY',
    message: `${name} is ${own.label}'s key: Loupe sends it to ${home} only, not to ${target ?? 'this base URL'}. Type the key for this base URL into the page instead.`,
  };
}

function defaultBaseUrl(kind: ProviderKind): string {
  return kind === 'anthropic' ? ANTHROPIC_BASE_URL : OPENAI_BASE_URL;
}
