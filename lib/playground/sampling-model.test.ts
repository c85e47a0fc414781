import { describe, expect, it } from 'vitest';
import type { ModelReply, ProviderConfig } from './types.ts';
import { openaiAdapter } from '../providers/openai.ts';
import { anthropicAdapter } from '../providers/anthropic.ts';
import { parseSampling } from '../client/sampling.ts';
import { chooseModel, NOT_SET_UP, planSamplingCall, replyDraft, samplingStopReason } from './sampling-model.ts';

const CONFIG: ProviderConfig = { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini', apiKeyRef: 'memory:k' };
const settings = (model = CONFIG.model, known: string[] = []) => ({ config: { ...CONFIG, model }, known });

/** What server-everything's trigger-sampling-request sends. */
const EVERYTHING = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Resource trigger-sampling-request context: hi' } }],
  systemPrompt: 'You are a helpful test server.',
  maxTokens: 100,
  temperature: 0.7,
};

describe('chooseModel', () => {
  it('takes the first hint that matches a listed model, an exact name before a part of one', () => {
    const known = ['claude-3-5-sonnet', 'claude-3-opus', 'sonnet'];
    expect(chooseModel(['gemini', 'sonnet'], settings('x', known))?.model).toBe('sonnet');
    expect(chooseModel(['OPUS'], settings('x', known))?.model).toBe('claude-3-opus');
    expect(chooseModel(['opus'], settings('x', known))?.why).toContain('a model the endpoint offers');
  });

  it('matches the set model too, and falls back to it with the hints named', () => {
    expect(chooseModel(['mini'], settings())).toEqual({ model: 'gpt-4o-mini', why: expect.stringContaining('matches the model set in the Playground') });
    const fallback = chooseModel(['claude-3'], settings('gpt-4o-mini', ['gpt-4o']));
    expect(fallback?.model).toBe('gpt-4o-mini');
    expect(fallback?.why).toBe('No hint (“claude-3”) matches the models the endpoint offers, so gpt-4o-mini answers.');
    expect(chooseModel([], settings())?.why).toBe('The request names no model, so the Playground’s model gpt-4o-mini answers.');
  });

  it('has no model when none is set and no hint matches', () => {
    expect(chooseModel(['claude'], settings(''))).toBeUndefined();
    expect(chooseModel(['claude'], settings('', ['claude-3-haiku']))?.model).toBe('claude-3-haiku');
  });
});

describe('planSamplingCall', () => {
  it('maps server-everything’s request: system prompt, the user text, maxTokens; temperature said not passed', () => {
    const plan = planSamplingCall(parseSampling(EVERYTHING), settings());
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.call.request).toEqual({ system: 'You are a helpful test server.', messages: [{ role: 'user', text: 'Resource trigger-sampling-request context: hi' }], tools: [] });
    expect(plan.call.config).toEqual({ ...CONFIG, maxTokens: 100 });
    expect(plan.call.notes).toEqual(['temperature 0.7 is not passed on: the Playground calls providers with their default.']);
    // And the adapters carry it as the API expects.
    expect(openaiAdapter.body(plan.call.config, plan.call.request, false)).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 100, messages: [{ role: 'system' }, { role: 'user', content: 'Resource trigger-sampling-request context: hi' }] });
    expect(anthropicAdapter.body({ ...plan.call.config, kind: 'anthropic' }, plan.call.request, false)).toMatchObject({ max_tokens: 100, system: 'You are a helpful test server.' });
  });

  it('says it cannot ask when no model is set up, or when nothing is readable', () => {
    expect(planSamplingCall(parseSampling(EVERYTHING), settings(''))).toEqual({ ok: false, error: NOT_SET_UP });
    expect(planSamplingCall(parseSampling({ messages: [], maxTokens: 5 }), settings())).toMatchObject({ ok: false, error: expect.stringContaining('no message the model could read') });
  });

  it('keeps the conversation: assistant turns, tool use and results, images as notes; hints choose; the rest is said', () => {
    const view = parseSampling({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is in this?' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'tu1', name: 'look', input: { at: 1 } }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 'tu1', content: [{ type: 'text', text: 'a cat' }] }] },
      ],
      maxTokens: 50,
      stopSequences: ['\n\n'],
      includeContext: 'thisServer',
      modelPreferences: { hints: [{ name: 'haiku' }], speedPriority: 1 },
      tools: [{ name: 'look', inputSchema: { type: 'object' } }],
      toolChoice: { mode: 'required' },
    });
    const plan = planSamplingCall(view, settings('claude-3-5-sonnet', ['claude-3-5-haiku', 'claude-3-5-sonnet']));
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.call.config.model).toBe('claude-3-5-haiku');
    expect(plan.call.request.messages).toEqual([
      { role: 'user', text: 'What is in this?\n[image: image/png]' },
      { role: 'assistant', parts: [{ type: 'tool_call', call: { id: 'tu1', name: 'look', arguments: { at: 1 }, argumentsText: '{"at":1}' } }] },
      { role: 'tool', results: [{ callId: 'tu1', content: [{ type: 'text', text: 'a cat' }], isError: false }] },
    ]);
    expect(plan.call.request.tools.map((t) => t.name)).toEqual(['look']);
    const notes = plan.call.notes.join('\n');
    for (const said of ['stop sequences ("\\n\\n")', 'includeContext “thisServer”', 'priorities are not used', 'Message 1’s image', 'toolChoice “required”']) expect(notes).toContain(said);
    const none = planSamplingCall({ ...view, toolChoice: 'none' }, settings());
    expect(none.ok && none.call.request.tools).toEqual([]);
  });
});

describe('the reply', () => {
  const reply = (over: Partial<ModelReply>): ModelReply => ({ message: { role: 'assistant', parts: [{ type: 'text', text: 'Hello.' }] }, stopReason: 'end', stopReasonRaw: 'stop', ...over });

  it('maps the stop reasons to the spec’s words', () => {
    expect(samplingStopReason({ stopReason: 'end', stopReasonRaw: 'stop' })).toBe('endTurn');
    expect(samplingStopReason({ stopReason: 'end', stopReasonRaw: 'stop_sequence' })).toBe('stopSequence');
    expect(samplingStopReason({ stopReason: 'max_tokens', stopReasonRaw: 'length' })).toBe('maxTokens');
    expect(samplingStopReason({ stopReason: 'tool_use' })).toBe('toolUse');
    expect(samplingStopReason({ stopReason: 'other', stopReasonRaw: 'content_filter' })).toBe('content_filter');
  });

  it('becomes a text draft named after the model that answered', () => {
    const view = parseSampling(EVERYTHING);
    expect(replyDraft(reply({ model: 'gpt-4o-mini-2024' }), { config: CONFIG }, view)).toEqual({ draft: { role: 'assistant', kind: 'text', model: 'gpt-4o-mini-2024', stopReason: 'endTurn', text: 'Hello.' }, notes: [] });
    expect(replyDraft(reply({}), { config: CONFIG }, view).draft.model).toBe('gpt-4o-mini');
  });

  it('a call to an offered tool becomes a tool-use draft; one to another tool keeps only the text', () => {
    const call = { id: 'c1', name: 'look', arguments: { at: 2 }, argumentsText: '{"at":2}' };
    const withCall = reply({ message: { role: 'assistant', parts: [{ type: 'text', text: 'Looking.' }, { type: 'tool_call', call }] }, stopReason: 'tool_use' });
    const offered = parseSampling({ ...EVERYTHING, tools: [{ name: 'look', inputSchema: { type: 'object' } }] });
    expect(replyDraft(withCall, { config: CONFIG }, offered).draft).toMatchObject({ kind: 'tool_use', toolName: 'look', toolUseId: 'c1', stopReason: 'toolUse', toolInput: '{\n  "at": 2\n}' });
    const other = replyDraft(withCall, { config: CONFIG }, parseSampling(EVERYTHING));
    expect(other.draft).toMatchObject({ kind: 'text', text: 'Looking.', stopReason: 'endTurn' });
    expect(other.notes).toEqual(['The model asked for a tool the server did not offer (look); only its text is kept.']);
  });
});
