/**
 * Model words (issue 27): how an eval file and `--model` name a model, in the Playground's own terms
 * (a provider kind, a base URL, a model name, a key by reference). The short forms name a provider's
 * own API; the long form names any endpoint, as the Playground's Base URL does:
 *
 *   anthropic:claude-sonnet-4-5                           the Anthropic API (key: ANTHROPIC_API_KEY)
 *   openai:gpt-4.1-mini                                   the OpenAI API (key: OPENAI_API_KEY)
 *   openai-compatible:http://127.0.0.1:11434/v1#llama3.1  any Chat Completions endpoint (Ollama, vLLM, LM Studio…)
 *   anthropic:http://127.0.0.1:8080/v1#my-model           any Messages API endpoint
 *   …#model,key=LOCAL_API_KEY                             the endpoint's key from that environment variable
 *
 * A key is never written in a word: only the name of the variable that holds it, and only one named
 * like an API key (`…_API_KEY`), the rule the proxy's key store applies to `env:` references
 * (proxy/playground/keys.ts), which also decides where a provider's own variable may be sent.
 */
import type { ProviderConfig, ProviderKind } from '../playground/messages.ts';
import { ANTHROPIC_BASE_URL, OPENAI_BASE_URL } from '../providers/base-urls.ts';

export interface EvalModel {
  /** The word without its key part: how reports, JUnit suites and the page name the model. */
  label: string;
  /** The settings of each call; `apiKeyRef` is `env:NAME` when the word names a variable. */
  config: ProviderConfig;
}

export type ModelWordResult = { ok: true; model: EvalModel } | { ok: false; error: string };

const KINDS: Record<string, ProviderKind> = { anthropic: 'anthropic', openai: 'openai-compatible', 'openai-compatible': 'openai-compatible' };
const OWN_API: Record<string, string> = { anthropic: ANTHROPIC_BASE_URL, openai: OPENAI_BASE_URL };
const KEY_PART = /,key=([^,]*)$/;
const KEY_NAME = /^[A-Z][A-Z0-9_]*_API_KEY$/;
export const MODEL_WORD_HINT = 'Write anthropic:MODEL, openai:MODEL, or openai-compatible:URL#MODEL (anthropic:URL#MODEL for a Messages API endpoint), optionally with ,key=NAME_API_KEY.';

/** Reads one model word; a bad one is a sentence that says how to write it. */
export function parseModelWord(word: string): ModelWordResult {
  const fail = (why: string): ModelWordResult => ({ ok: false, error: `The model ${JSON.stringify(word.slice(0, 200))} ${why}. ${MODEL_WORD_HINT}` });
  const keyed = KEY_PART.exec(word);
  const rest = keyed ? word.slice(0, keyed.index) : word;
  if (keyed && !KEY_NAME.test(keyed[1])) return fail(`names the key variable ${JSON.stringify(keyed[1])}, which is not an environment variable named like NAME_API_KEY`);
  const colon = rest.indexOf(':');
  const prefix = colon > 0 ? rest.slice(0, colon) : '';
  const kind = KINDS[prefix];
  if (kind === undefined) return fail('does not start with a provider (anthropic:, openai: or openai-compatible:)');
  const body = rest.slice(colon + 1).trim();
  const apiKeyRef = keyed ? { apiKeyRef: `env:${keyed[1]}` } : {};
  if (/^https?:\/\//i.test(body)) {
    const hash = body.lastIndexOf('#');
    const baseUrl = hash > 0 ? body.slice(0, hash) : '';
    const model = hash > 0 ? body.slice(hash + 1).trim() : '';
    if (model === '') return fail('gives an endpoint but no model after #');
    if (!validUrl(baseUrl)) return fail(`has the base URL ${JSON.stringify(baseUrl)}, which is not an http or https URL`);
    return { ok: true, model: { label: `${prefix}:${baseUrl}#${model}`, config: { kind, baseUrl, model, ...apiKeyRef } } };
  }
  if (body === '') return fail('names no model');
  if (prefix === 'openai-compatible') return fail('names no endpoint: an OpenAI-compatible model needs its base URL before #');
  return { ok: true, model: { label: `${prefix}:${body}`, config: { kind, baseUrl: OWN_API[prefix], model: body, ...apiKeyRef } } };
}

function validUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The word for Playground settings (the page offers its configured providers this way): the short
 * form for a provider's own API, else the endpoint's. The key stays out: the page holds it by reference.
 */
export function modelWordOf(config: Pick<ProviderConfig, 'kind' | 'baseUrl' | 'model'>): string {
  const base = config.baseUrl.trim().replace(/\/+$/, '');
  const model = config.model.trim();
  if (config.kind === 'anthropic') return base === ANTHROPIC_BASE_URL || base === '' ? `anthropic:${model}` : `anthropic:${base}#${model}`;
  return base === OPENAI_BASE_URL || base === '' ? `openai:${model}` : `openai-compatible:${base}#${model}`;
}
