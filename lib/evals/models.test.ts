import { describe, expect, it } from 'vitest';
import { modelWordOf, parseModelWord } from './models.ts';

describe('model words', () => {
  it('short forms name a provider’s own API; the long form any endpoint; a key only by its variable’s name', () => {
    expect(parseModelWord('anthropic:claude-sonnet-4-5')).toEqual({ ok: true, model: { label: 'anthropic:claude-sonnet-4-5', config: { kind: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5' } } });
    expect(parseModelWord('openai:gpt-4.1-mini')).toEqual({ ok: true, model: { label: 'openai:gpt-4.1-mini', config: { kind: 'openai-compatible', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1-mini' } } });
    expect(parseModelWord('openai-compatible:http://127.0.0.1:11434/v1#llama3.1:8b')).toEqual({
      ok: true,
      model: { label: 'openai-compatible:http://127.0.0.1:11434/v1#llama3.1:8b', config: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1:8b' } },
    });
    expect(parseModelWord('anthropic:http://127.0.0.1:8080/v1#m,key=LOCAL_API_KEY')).toEqual({
      ok: true,
      model: { label: 'anthropic:http://127.0.0.1:8080/v1#m', config: { kind: 'anthropic', baseUrl: 'http://127.0.0.1:8080/v1', model: 'm', apiKeyRef: 'env:LOCAL_API_KEY' } },
    });
  });

  it('a bad word says how to write one', () => {
    const error = (word: string) => {
      const read = parseModelWord(word);
      return read.ok ? '' : read.error;
    };
    expect(error('gpt-4o')).toContain('does not start with a provider');
    expect(error('gpt-4o')).toContain('openai-compatible:URL#MODEL');
    expect(error('openai-compatible:llama')).toContain('names no endpoint');
    expect(error('openai-compatible:http://127.0.0.1:1/v1')).toContain('no model after #');
    expect(error('openai:x,key=sk-abc123')).toContain('not an environment variable named like NAME_API_KEY');
    expect(error('openai:')).toContain('names no model');
  });

  it('the Playground’s settings as a word, read back to the same settings', () => {
    const settings = [
      { kind: 'anthropic' as const, baseUrl: 'https://api.anthropic.com/v1', model: 'claude-x' },
      { kind: 'openai-compatible' as const, baseUrl: 'https://api.openai.com/v1/', model: 'gpt-x' },
      { kind: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1:9/v1', model: 'script-echo' },
      { kind: 'anthropic' as const, baseUrl: 'http://127.0.0.1:9/v1', model: 'script-echo' },
    ];
    expect(settings.map(modelWordOf)).toEqual(['anthropic:claude-x', 'openai:gpt-x', 'openai-compatible:http://127.0.0.1:9/v1#script-echo', 'anthropic:http://127.0.0.1:9/v1#script-echo']);
    for (const s of settings) {
      const read = parseModelWord(modelWordOf(s));
      expect(read.ok && read.model.config).toEqual({ ...s, baseUrl: s.baseUrl.replace(/\/$/, '') });
    }
  });
});
