/**
 * Where each provider's API lives by default. Apart from the adapters so that the proxy's key store
 * (proxy/playground/keys.ts), loaded at start, need not load the adapters with them (issue 23).
 */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';
