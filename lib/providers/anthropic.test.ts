import { describe, expect, it } from 'vitest';
import { anthropicAdapter as anthropic, anthropicMessages } from './anthropic.ts';
import type { Message, ModelReply, Outcome, PlaygroundTool, StreamDelta } from '../playground/types.ts';

const echo: PlaygroundTool = { name: 'echo', server: 'everything', tool: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }, readOnly: true };
const config = { kind: 'anthropic' as const, baseUrl: 'https://api.anthropic.com/v1/', model: 'claude-x' };

const history: Message[] = [
  { role: 'user', text: 'Echo hi and add' },
  {
    role: 'assistant',
    parts: [
      { type: 'text', text: 'Calling.' },
      { type: 'tool_call', call: { id: 'toolu_1', name: 'echo', arguments: { message: 'hi' }, argumentsText: '{"message":"hi"}' } },
      { type: 'text', text: '' },
      { type: 'tool_call', call: { id: 'toolu_2', name: 'add', arguments: { a: 1 }, argumentsText: '{"a":1}' } },
    ],
  },
  {
    role: 'tool',
    results: [
      { callId: 'toolu_1', content: [{ type: 'text', text: 'Echo: hi' }, { type: 'image', mimeType: 'image/png', data: 'AAAA' }], isError: false },
      { callId: 'toolu_2', content: [], structuredContent: { sum: 1 }, isError: true },
    ],
  },
  { role: 'user', text: 'thanks' },
];

function unwrap<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.value;
}

describe('Anthropic request', () => {
  it('translates tools, the system prompt and a history with tool calls and results', () => {
    const body = anthropic.body(config, { system: 'Be brief.', messages: history, tools: [echo] }, false);
    expect(body).toEqual({
      model: 'claude-x',
      max_tokens: 4096,
      system: 'Be brief.',
      tools: [{ name: 'echo', description: 'Echoes', input_schema: echo.inputSchema }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Echo hi and add' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Calling.' },
            { type: 'tool_use', id: 'toolu_1', name: 'echo', input: { message: 'hi' } },
            { type: 'tool_use', id: 'toolu_2', name: 'add', input: { a: 1 } },
          ],
        },
        // The results and the next user text share one user message, results first.
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'Echo: hi' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: '{"sum":1}' }], is_error: true },
            { type: 'text', text: 'thanks' },
          ],
        },
      ],
    });
  });

  it('asks for a stream, keeps max_tokens when set, and leaves out empty parts', () => {
    const body = anthropic.body({ ...config, maxTokens: 100 }, { messages: [{ role: 'user', text: 'a' }, { role: 'user', text: 'b' }], tools: [] }, true);
    expect(body).toEqual({ model: 'claude-x', max_tokens: 100, stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }] });
    expect(anthropicMessages([{ role: 'assistant', parts: [{ type: 'text', text: '' }] }])).toEqual([]);
  });

  it('puts the key in x-api-key, with anthropic-version, and only when there is one', () => {
    expect(anthropic.headers('sk-1')).toEqual({ 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-1' });
    expect(anthropic.headers(undefined)).not.toHaveProperty('x-api-key');
    expect(anthropic.url(config.baseUrl, 'chat')).toBe('https://api.anthropic.com/v1/messages');
    expect(anthropic.url('', 'models')).toBe('https://api.anthropic.com/v1/models');
  });
});

const message = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-x',
  content: [
    { type: 'text', text: 'Two calls.' },
    { type: 'tool_use', id: 'toolu_a', name: 'echo', input: { message: 'a' } },
    { type: 'tool_use', id: 'toolu_b', name: 'echo', input: { message: 'b' } },
  ],
  stop_reason: 'tool_use',
  usage: { input_tokens: 12, output_tokens: 34 },
};

const expectedReply: ModelReply = {
  message: {
    role: 'assistant',
    parts: [
      { type: 'text', text: 'Two calls.' },
      { type: 'tool_call', call: { id: 'toolu_a', name: 'echo', arguments: { message: 'a' }, argumentsText: '{"message":"a"}' } },
      { type: 'tool_call', call: { id: 'toolu_b', name: 'echo', arguments: { message: 'b' }, argumentsText: '{"message":"b"}' } },
    ],
  },
  stopReason: 'tool_use',
  stopReasonRaw: 'tool_use',
  usage: { inputTokens: 12, outputTokens: 34 },
  model: 'claude-x',
};

describe('Anthropic reply', () => {
  it('reads text and parallel tool_use blocks, the stop reason and usage', () => {
    expect(unwrap(anthropic.parseReply(message))).toEqual(expectedReply);
    expect(unwrap(anthropic.parseReply({ ...message, content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' })).stopReason).toBe('end');
  });

  it('says when the body is not a message or is an error', () => {
    expect(anthropic.parseReply({ nope: 1 })).toMatchObject({ ok: false, error: { code: 'BAD_RESPONSE', message: 'The Anthropic API sent a reply Loupe cannot read: it has no "content" list.' } });
    expect(anthropic.parseReply({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toMatchObject({ ok: false, error: { message: expect.stringContaining('overloaded_error: Overloaded') } });
  });
});

const sse = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const streamed = [
  sse('message_start', { message: { id: 'msg_1', model: 'claude-x', content: [], usage: { input_tokens: 12, output_tokens: 1 } } }),
  sse('ping', {}),
  sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Two ' } }),
  sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'calls.' } }),
  sse('content_block_stop', { index: 0 }),
  sse('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_a', name: 'echo', input: {} } }),
  sse('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '' } }),
  sse('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"mess' } }),
  sse('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: 'age":"a"}' } }),
  sse('content_block_stop', { index: 1 }),
  sse('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'toolu_b', name: 'echo', input: {} } }),
  sse('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"message":"b"}' } }),
  sse('content_block_stop', { index: 2 }),
  sse('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 34 } }),
  sse('message_stop', {}),
].join('');

function readStream(text: string, size: number): { outcome: Outcome<ModelReply>; deltas: StreamDelta[] } {
  const reader = anthropic.stream();
  const deltas: StreamDelta[] = [];
  for (let i = 0; i < text.length; i += size) deltas.push(...reader.push(text.slice(i, i + size)));
  return { outcome: reader.end(), deltas };
}

describe('Anthropic stream', () => {
  it('assembles text and parallel tool calls from fragments however the body is cut', () => {
    for (const size of [1, 2, 3, 7, 64, streamed.length]) {
      const { outcome } = readStream(streamed, size);
      // Streamed arguments keep the text as written, which here is the same JSON.
      expect(unwrap(outcome), `chunks of ${size}`).toEqual(expectedReply);
    }
  });

  it('tells the page what arrived, as it arrives', () => {
    const { deltas } = readStream(streamed, 5);
    expect(deltas).toEqual([
      { type: 'text', text: 'Two ' },
      { type: 'text', text: 'calls.' },
      { type: 'tool_call_start', index: 1, id: 'toolu_a', name: 'echo' },
      { type: 'tool_call_arguments', index: 1, fragment: '' },
      { type: 'tool_call_arguments', index: 1, fragment: '{"mess' },
      { type: 'tool_call_arguments', index: 1, fragment: 'age":"a"}' },
      { type: 'tool_call_start', index: 2, id: 'toolu_b', name: 'echo' },
      { type: 'tool_call_arguments', index: 2, fragment: '{"message":"b"}' },
    ]);
  });

  it('marks arguments that are not JSON, and keeps what the model wrote', () => {
    const broken = streamed.replace('age\\":\\"a\\"}', 'age\\": \\"a');
    const call = unwrap(readStream(broken, 10).outcome).message.parts[1];
    expect(call).toMatchObject({ type: 'tool_call', call: { argumentsText: '{"message": "a', arguments: {}, argumentsError: expect.stringMatching(/^the arguments are not valid JSON/) } });
  });

  it('reports an error event, a broken event, a cut-off stream and a JSON error instead of a stream', () => {
    const error = sse('message_start', { message: { usage: {} } }) + sse('error', { error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(readStream(error, 9).outcome).toEqual({ ok: false, error: { code: 'SERVER_ERROR', message: "The Anthropic API stopped the reply with an error (overloaded_error: Overloaded). Try again in a moment." } });
    expect(readStream('event: message_start\ndata: {"type": "mess\n\n', 4).outcome).toMatchObject({ ok: false, error: { code: 'BAD_STREAM', message: expect.stringContaining("an event's data is not JSON") } });
    expect(readStream(streamed.slice(0, streamed.indexOf('event: message_delta')), 50).outcome).toEqual({
      ok: false,
      error: { code: 'BAD_STREAM', message: "The Anthropic API's stream broke off or could not be read: it ended before message_stop. Send the message again." },
    });
    const json = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } });
    expect(readStream(json, 8).outcome).toMatchObject({ ok: false, error: { message: expect.stringContaining('invalid_request_error: max_tokens: Field required') } });
    expect(readStream('', 1).outcome).toMatchObject({ ok: false, error: { message: expect.stringContaining('it did not start with message_start') } });
  });
});

describe('Anthropic errors and models', () => {
  const body = (type: string, msg: string) => JSON.stringify({ type: 'error', error: { type, message: msg } });
  it.each([
    [401, 'UNAUTHORIZED', 'The Anthropic API refused the API key (HTTP 401: authentication_error: invalid x-api-key). Check the key, or the environment variable it comes from.'],
    [403, 'FORBIDDEN', "The Anthropic API does not let this key do that (HTTP 403: permission_error: nope). Check the key's permissions and the account's access to the model."],
    [404, 'NOT_FOUND', 'The Anthropic API has no such endpoint or model (HTTP 404: not_found_error: model: claude-z). Check the base URL and the model name.'],
    [429, 'RATE_LIMITED', 'The Anthropic API is limiting requests (HTTP 429: rate_limit_error: slow down). Wait a little, then send again.'],
    [529, 'SERVER_ERROR', 'The Anthropic API failed on its side (HTTP 529: overloaded_error: Overloaded). Try again in a moment.'],
  ])('HTTP %i in plain words', (status, code, message) => {
    const details: Record<number, [string, string]> = { 401: ['authentication_error', 'invalid x-api-key'], 403: ['permission_error', 'nope'], 404: ['not_found_error', 'model: claude-z'], 429: ['rate_limit_error', 'slow down'], 529: ['overloaded_error', 'Overloaded'] };
    expect(anthropic.httpError(status, body(...details[status]))).toEqual({ code, status, message });
  });

  it('a body that is not JSON is quoted as it came', () => {
    expect(anthropic.httpError(502, '<html>Bad gateway</html>').message).toBe('The Anthropic API failed on its side (HTTP 502: <html>Bad gateway</html>). Try again in a moment.');
  });

  it('reads the model list', () => {
    expect(unwrap(anthropic.parseModels({ data: [{ type: 'model', id: 'claude-a', display_name: 'Claude A' }, { id: 'claude-b' }, { nope: 1 }], has_more: false }))).toEqual([{ id: 'claude-a', name: 'Claude A' }, { id: 'claude-b' }]);
    expect(anthropic.parseModels({})).toMatchObject({ ok: false, error: { code: 'BAD_RESPONSE' } });
  });
});
