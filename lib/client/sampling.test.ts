import { describe, expect, it } from 'vitest';
import { applyPreset, buildSamplingResult, DEFAULT_DRAFT, parsePresets, parseSampling, PRESET_CAP, savePreset } from './sampling.ts';

const PNG = 'iVBORw0KGgo=';

const everything = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Resource trigger-sampling-request context: hi' } }],
  systemPrompt: 'You are a helpful test server.',
  maxTokens: 100,
  temperature: 0.7,
};

describe('parseSampling', () => {
  it('reads the request server-everything sends', () => {
    const view = parseSampling(everything);
    expect(view.problems).toEqual([]);
    expect(view.messages).toEqual([{ role: 'user', blocks: [{ kind: 'content', block: { kind: 'text', text: 'Resource trigger-sampling-request context: hi' } }] }]);
    expect(view).toMatchObject({ systemPrompt: 'You are a helpful test server.', maxTokens: 100, temperature: 0.7, tools: [], toolChoice: undefined });
  });

  it('reads preferences, context, stop sequences, tools and tool blocks', () => {
    const view = parseSampling({
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Oslo' } }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: '3°C' }] }, { type: 'image', data: PNG, mimeType: 'image/png' }] },
      ],
      modelPreferences: { hints: [{ name: 'claude' }, { bogus: 1 }], costPriority: 0.2, speedPriority: 'fast' },
      includeContext: 'thisServer',
      stopSequences: ['\n\n', 3],
      maxTokens: 10,
      tools: [{ name: 'weather', description: 'Weather', inputSchema: { type: 'object' } }, { nope: true }],
    });
    expect(view.modelPreferences).toEqual({ hints: ['claude'], costPriority: 0.2, speedPriority: undefined, intelligencePriority: undefined });
    expect(view.includeContext).toBe('thisServer');
    expect(view.stopSequences).toEqual(['\n\n']);
    expect(view.tools.map((t) => t.name)).toEqual(['weather']);
    expect(view.toolChoice).toBe('auto');
    expect(view.problems).toEqual(['tool #2 has no string "name"']);
    expect(view.messages[0].blocks[0]).toEqual({ kind: 'tool_use', id: 't1', name: 'weather', input: { city: 'Oslo' } });
    expect(view.messages[1].blocks[0]).toMatchObject({ kind: 'tool_result', toolUseId: 't1', isError: false, blocks: [{ kind: 'text', text: '3°C' }] });
    expect(view.messages[1].blocks[1]).toMatchObject({ kind: 'content', block: { kind: 'image', mimeType: 'image/png' } });
  });

  it('names what is malformed', () => {
    expect(parseSampling({ messages: [{ role: 'system', content: { type: 'text', text: 'x' } }, 4] }).problems).toEqual([
      '"maxTokens" is missing or not a number',
      'message #1 has role "system"',
      'message #2 is not an object',
    ]);
    expect(parseSampling('x').problems).toEqual(['params are missing or not an object']);
  });
});

describe('buildSamplingResult', () => {
  const plain = parseSampling(everything);
  const withTools = parseSampling({ ...everything, tools: [{ name: 'weather', inputSchema: { type: 'object' } }] });

  it('builds a text reply', () => {
    expect(buildSamplingResult({ ...DEFAULT_DRAFT, text: 'Hello', model: 'm1' }, plain)).toEqual({
      ok: true,
      result: { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm1', stopReason: 'endTurn' },
    });
  });

  it('builds an image reply from base64 or a data URL', () => {
    const fromData = buildSamplingResult({ ...DEFAULT_DRAFT, kind: 'image', imageData: `data:image/gif;base64,${PNG}` }, plain);
    expect(fromData).toMatchObject({ ok: true, result: { content: { type: 'image', data: PNG, mimeType: 'image/gif' } } });
    expect(buildSamplingResult({ ...DEFAULT_DRAFT, kind: 'image', imageData: '***' }, plain)).toEqual({ ok: false, error: 'The image data is not base64' });
    expect(buildSamplingResult({ ...DEFAULT_DRAFT, kind: 'image' }, plain).ok).toBe(false);
  });

  it('builds a tool-use reply only when tools were offered', () => {
    const draft = { ...DEFAULT_DRAFT, kind: 'tool_use' as const, toolName: 'weather', toolInput: '{"city":"Oslo"}', toolUseId: 'u1', stopReason: 'toolUse' };
    expect(buildSamplingResult(draft, withTools)).toEqual({
      ok: true,
      result: { role: 'assistant', content: { type: 'tool_use', id: 'u1', name: 'weather', input: { city: 'Oslo' } }, model: DEFAULT_DRAFT.model, stopReason: 'toolUse' },
    });
    expect(buildSamplingResult(draft, plain)).toMatchObject({ ok: false, error: expect.stringContaining('offered no tools') });
    expect(buildSamplingResult({ ...draft, toolInput: '[1]' }, withTools)).toEqual({ ok: false, error: 'Tool input must be a JSON object' });
    expect(buildSamplingResult({ ...draft, toolInput: '{' }, withTools)).toMatchObject({ ok: false, error: expect.stringContaining('not valid JSON') });
    expect(buildSamplingResult({ ...draft, toolName: 'other' }, withTools)).toEqual({ ok: false, error: 'Choose one of the offered tools' });
  });

  it('needs a model name and leaves out an empty stop reason', () => {
    expect(buildSamplingResult({ ...DEFAULT_DRAFT, model: ' ' }, plain).ok).toBe(false);
    const built = buildSamplingResult({ ...DEFAULT_DRAFT, stopReason: '' }, plain);
    expect(built.ok && 'stopReason' in built.result).toBe(false);
  });
});

describe('presets', () => {
  it('saves, replaces by name, caps and reads back', () => {
    let presets = savePreset([], 'Polite', { ...DEFAULT_DRAFT, text: 'Sure!' });
    presets = savePreset(presets, 'Polite', { ...DEFAULT_DRAFT, text: 'Of course!' });
    expect(presets).toEqual([{ name: 'Polite', draft: { role: 'assistant', kind: 'text', text: 'Of course!', model: DEFAULT_DRAFT.model, stopReason: 'endTurn' } }]);
    for (let i = 0; i < PRESET_CAP + 3; i++) presets = savePreset(presets, `p${i}`, DEFAULT_DRAFT);
    expect(presets).toHaveLength(PRESET_CAP);
    expect(parsePresets(JSON.stringify(presets))).toEqual(presets);
    expect(applyPreset({ ...DEFAULT_DRAFT, toolName: 'keep' }, presets[0])).toMatchObject({ toolName: 'keep', text: '' });
  });

  it('survives damaged storage', () => {
    expect(parsePresets(null)).toEqual([]);
    expect(parsePresets('{')).toEqual([]);
    expect(parsePresets('{"a":1}')).toEqual([]);
    expect(parsePresets('[{"name":"x","draft":{"role":"god","kind":"x","text":5}}, 3]')).toEqual([
      { name: 'x', draft: { role: 'assistant', kind: 'text', text: '', model: DEFAULT_DRAFT.model, stopReason: '' } },
    ]);
  });
});
