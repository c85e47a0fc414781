import { describe, expect, it } from 'vitest';
import { openaiAdapter as openai } from './openai.ts';
import type { Message, ModelReply, Outcome, PlaygroundTool, StreamDelta } from '../playground/types.ts';

const echo: PlaygroundTool = { name: 'a__echo', server: 'a', tool: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }, readOnly: true };
const config = { kind: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1:11434/v1/', model: 'llama' };

const history: Message[] = [
  { role: 'user', text: 'Echo hi' },
  {
    role: 'assistant',
    parts: [
      { type: 'tool_call', call: { id: 'call_1', name: 'a__echo', arguments: { message: 'hi' }, argumentsText: '{"message": "hi"}' } },
      { type: 'tool_call', call: { id: 'call_2', name: 'a__echo', arguments: {}, argumentsText: '{"message": ', argumentsError: 'the arguments are not valid JSON' } },
    ],
  },
  {
    role: 'tool',
    results: [
      { callId: 'call_1', content: [{ type: 'text', text: 'Echo: hi' }, { type: 'image', mimeType: 'image/png', data: 'AAAA' }], isError: false },
      { callId: 'call_2', content: [{ type: 'text', text: 'not JSON' }], isError: true },
    ],
  },
  { role: 'assistant', parts: [{ type: 'text', text: 'Done: hi' }] },
];

function unwrap<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.value;
}

describe('Chat Completions request', () => {
  it('translates tools, the system prompt, tool_calls and role:"tool" results', () => {
    expect(openai.body(config, { system: 'Be brief.', messages: history, tools: [echo] }, false)).toEqual({
      model: 'llama',
      tools: [{ type: 'function', function: { name: 'a__echo', description: 'Echoes', parameters: echo.inputSchema } }],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Echo hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'a__echo', arguments: '{"message": "hi"}' } },
            // Broken JSON is not sent back: APIs refuse it in a request.
            { id: 'call_2', type: 'function', function: { name: 'a__echo', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'Echo: hi\n[image: image/png]' },
        { role: 'tool', tool_call_id: 'call_2', content: 'Error: not JSON' },
        { role: 'assistant', content: 'Done: hi' },
      ],
    });
  });

  it('asks for a stream with usage, and sends max_tokens only when set', () => {
    const body = openai.body({ ...config, maxTokens: 50 }, { messages: [{ role: 'user', text: 'x' }], tools: [] }, true);
    expect(body).toEqual({ model: 'llama', messages: [{ role: 'user', content: 'x' }], max_tokens: 50, stream: true, stream_options: { include_usage: true } });
  });

  it('sends the key as a bearer token, and no Authorization header without one', () => {
    expect(openai.headers('sk-1')).toEqual({ 'content-type': 'application/json', authorization: 'Bearer sk-1' });
    expect(Object.keys(openai.headers(''))).toEqual(['content-type']);
    expect(openai.url(config.baseUrl, 'chat')).toBe('http://127.0.0.1:11434/v1/chat/completions');
    expect(openai.url('', 'models')).toBe('https://api.openai.com/v1/models');
  });
});

const completion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'gpt-x',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'Two calls.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'a__echo', arguments: '{"message":"a"}' } },
          { id: 'call_b', type: 'function', function: { name: 'a__echo', arguments: '{"message":"b"}' } },
        ],
      },
      finish_reason: 'tool_calls',
    },
  ],
  usage: { prompt_tokens: 12, completion_tokens: 34, total_tokens: 46 },
};

const expectedReply: ModelReply = {
  message: {
    role: 'assistant',
    parts: [
      { type: 'text', text: 'Two calls.' },
      { type: 'tool_call', call: { id: 'call_a', name: 'a__echo', arguments: { message: 'a' }, argumentsText: '{"message":"a"}' } },
      { type: 'tool_call', call: { id: 'call_b', name: 'a__echo', arguments: { message: 'b' }, argumentsText: '{"message":"b"}' } },
    ],
  },
  stopReason: 'tool_use',
  stopReasonRaw: 'tool_calls',
  usage: { inputTokens: 12, outputTokens: 34 },
  model: 'gpt-x',
};

describe('Chat Completions reply', () => {
  it('reads content, parallel tool_calls, finish_reason and usage', () => {
    expect(unwrap(openai.parseReply(completion))).toEqual(expectedReply);
  });

  it('keeps the cost a provider reports with the usage (OpenRouter’s usage.cost; evals add it up)', () => {
    const priced = { ...completion, usage: { ...completion.usage, cost: 0.00042 } };
    expect(unwrap(openai.parseReply(priced)).usage).toEqual({ inputTokens: 12, outputTokens: 34, cost: 0.00042 });
  });

  it('accepts arguments sent as an object, and marks arguments that are not JSON', () => {
    const odd = { choices: [{ message: { content: null, tool_calls: [{ id: 'c', function: { name: 'x', arguments: { a: 1 } } }, { id: 'd', function: { name: 'x', arguments: '[1' } }] }, finish_reason: 'tool_calls' }] };
    const parts = unwrap(openai.parseReply(odd)).message.parts;
    expect(parts[0]).toEqual({ type: 'tool_call', call: { id: 'c', name: 'x', arguments: { a: 1 }, argumentsText: '{"a":1}' } });
    expect(parts[1]).toMatchObject({ call: { argumentsText: '[1', arguments: {}, argumentsError: expect.stringMatching(/not valid JSON/) } });
  });

  it('says when the body is an error or not a completion', () => {
    expect(openai.parseReply({ error: { message: 'model not loaded' } })).toEqual({ ok: false, error: { code: 'SERVER_ERROR', message: 'The provider answered with an error (model not loaded). Check the settings and send again.' } });
    expect(openai.parseReply({ choices: [] })).toMatchObject({ ok: false, error: { code: 'BAD_RESPONSE', message: 'The provider sent a reply Loupe cannot read: it has no message in its first choice.' } });
  });
});

const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c', model: 'gpt-x', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const streamed = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: 'Two ' }),
  chunk({ content: 'calls.' }),
  chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'a__echo', arguments: '' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"mes' } }] }),
  chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'a__echo', arguments: '{"message"' } }] }),
  // Fragments of two calls in one chunk, out of order.
  chunk({ tool_calls: [{ index: 1, function: { arguments: ':"b"}' } }, { index: 0, function: { arguments: 'sage":"a"}' } }] }),
  chunk({}, 'tool_calls'),
  `data: ${JSON.stringify({ id: 'c', choices: [], usage: { prompt_tokens: 12, completion_tokens: 34 } })}\n\n`,
  'data: [DONE]\n\n',
].join('');

function readStream(text: string, size: number): { outcome: Outcome<ModelReply>; deltas: StreamDelta[] } {
  const reader = openai.stream();
  const deltas: StreamDelta[] = [];
  for (let i = 0; i < text.length; i += size) deltas.push(...reader.push(text.slice(i, i + size)));
  return { outcome: reader.end(), deltas };
}

describe('Chat Completions stream', () => {
  it('assembles text and parallel tool calls from fragments by index, however the body is cut', () => {
    for (const size of [1, 2, 3, 7, 64, streamed.length]) expect(unwrap(readStream(streamed, size).outcome), `chunks of ${size}`).toEqual(expectedReply);
  });

  it('tells the page what arrived, as it arrives', () => {
    expect(readStream(streamed, 11).deltas).toEqual([
      { type: 'text', text: 'Two ' },
      { type: 'text', text: 'calls.' },
      { type: 'tool_call_start', index: 0, id: 'call_a', name: 'a__echo' },
      { type: 'tool_call_arguments', index: 0, fragment: '{"mes' },
      { type: 'tool_call_start', index: 1, id: 'call_b', name: 'a__echo' },
      { type: 'tool_call_arguments', index: 1, fragment: '{"message"' },
      { type: 'tool_call_arguments', index: 1, fragment: ':"b"}' },
      { type: 'tool_call_arguments', index: 0, fragment: 'sage":"a"}' },
    ]);
  });

  it('keeps calls apart when a server reuses index 0 with a new id, and accepts a stream without [DONE]', () => {
    const reused = [
      chunk({ tool_calls: [{ index: 0, id: 'x1', function: { name: 'a__echo', arguments: '{"message":"1"}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'x2', function: { name: 'a__echo', arguments: '{"message":"2"}' } }] }),
      chunk({}, 'tool_calls'),
    ].join('');
    const reply = unwrap(readStream(reused, 13).outcome);
    expect(reply.message.parts.map((p) => (p.type === 'tool_call' ? [p.call.id, p.call.arguments] : p))).toEqual([
      ['x1', { message: '1' }],
      ['x2', { message: '2' }],
    ]);
    expect(reply.usage).toBeUndefined();
  });

  it('reports a broken chunk, a cut-off stream, an error chunk and a JSON error instead of a stream', () => {
    expect(readStream('data: {"choices": [{"delta": {"content": "lo\n\n', 5).outcome).toMatchObject({ ok: false, error: { code: 'BAD_STREAM', message: expect.stringContaining('a chunk is not JSON') } });
    expect(readStream(streamed.slice(0, streamed.indexOf('data: {"id":"c","model":"gpt-x","choices":[{"index":0,"delta":{},')), 9).outcome).toEqual({
      ok: false,
      error: { code: 'BAD_STREAM', message: "The provider's stream broke off or could not be read: it ended before [DONE]. Send the message again." },
    });
    expect(readStream(`${chunk({ content: 'a' })}data: {"error": {"message": "upstream timeout"}}\n\n`, 6).outcome).toEqual({
      ok: false,
      error: { code: 'SERVER_ERROR', message: 'The provider stopped the reply with an error (upstream timeout). Try again in a moment.' },
    });
    expect(readStream('{"error": "model \\"x\\" not found"}', 4).outcome).toMatchObject({ ok: false, error: { message: 'The provider answered with an error (model "x" not found). Check the settings and send again.' } });
    const nameless = `${chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] })}data: [DONE]\n\n`;
    expect(readStream(nameless, 50).outcome).toMatchObject({ ok: false, error: { message: expect.stringContaining('tool call 1 never got a name') } });
  });
});

describe('Chat Completions errors and models', () => {
  it.each([
    [401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error' } }, 'UNAUTHORIZED', 'The provider refused the API key (HTTP 401: Incorrect API key provided.). Check the key, or the environment variable it comes from.'],
    [403, { error: { message: 'Country not supported' } }, 'FORBIDDEN', "The provider does not let this key do that (HTTP 403: Country not supported). Check the key's permissions and the account's access to the model."],
    [404, { error: 'model "x" not found, try pulling it first' }, 'NOT_FOUND', 'The provider has no such endpoint or model (HTTP 404: model "x" not found, try pulling it first). Check the base URL and the model name.'],
    [429, { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } }, 'RATE_LIMITED', 'The provider is limiting requests (HTTP 429: Rate limit reached). Wait a little, then send again.'],
    [500, { object: 'error', message: 'engine crashed' }, 'SERVER_ERROR', 'The provider failed on its side (HTTP 500: engine crashed). Try again in a moment.'],
    [400, { error: { message: 'Invalid tools' } }, 'BAD_REQUEST', 'The provider refused the request (HTTP 400: Invalid tools). Check the model name and the settings.'],
  ])('HTTP %i in plain words', (status, body, code, message) => {
    expect(openai.httpError(status, JSON.stringify(body))).toEqual({ code, status, message });
  });

  it('reads the model list', () => {
    expect(unwrap(openai.parseModels({ object: 'list', data: [{ id: 'gpt-a', object: 'model' }, { id: 3 }] }))).toEqual([{ id: 'gpt-a' }]);
    expect(openai.parseModels({ models: [] })).toMatchObject({ ok: false, error: { code: 'BAD_RESPONSE' } });
  });
});
