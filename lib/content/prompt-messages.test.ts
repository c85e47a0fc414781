import { describe, expect, it } from 'vitest';
import { normalisePromptResult, promptArguments } from './prompt-messages.ts';

describe('prompts/get results', () => {
  it('reads messages as role + block, flagging odd ones without dropping the rest', () => {
    const result = normalisePromptResult({
      description: 'd',
      messages: [
        { role: 'user', content: { type: 'text', text: 'hi' } },
        { role: 'assistant', content: { type: 'resource', resource: { uri: 'demo://x', text: 'body', mimeType: 'text/plain' } } },
        { role: 'system', content: { type: 'image', mimeType: 'image/png', data: 'AAAA' } },
        'junk',
      ],
    });
    expect(result.description).toBe('d');
    expect(result.messages.map((m) => [m.role, m.block.kind, m.problem])).toEqual([
      ['user', 'text', undefined],
      ['assistant', 'resource', undefined],
      ['system', 'image', 'message #3 has role "system"'],
      ['?', 'unknown', 'message #4 is not an object'],
    ]);
    expect(normalisePromptResult(null).problems).toEqual(['result is not an object']);
    expect(normalisePromptResult({}).problems).toEqual(['result has no "messages" array']);
  });

  it('sends every argument as a string and leaves out empty ones', () => {
    expect(promptArguments({ city: 'Paris', state: '' })).toEqual({ city: 'Paris' });
  });
});
