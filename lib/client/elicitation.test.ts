import { describe, expect, it } from 'vitest';
import { checkInputSchema, validateArguments } from '../schema/tool-schema.ts';
import { elicitContent, elicitResult, formSchema, parseElicitation, urlFacts } from './elicitation.ts';

const requested = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'String' },
    email: { type: 'string', format: 'email' },
    integer: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
    friend: { type: 'string', enum: ['Monica', 'Rachel'], default: 'Monica' },
    instruments: { type: 'array', minItems: 1, items: { type: 'string', enum: ['Guitar', 'Piano'] }, default: ['Guitar'] },
    hero: { type: 'string', oneOf: [{ const: 'hero-1', title: 'Superman' }] },
    fish: { type: 'array', items: { anyOf: [{ const: 'fish-1', title: 'Tuna' }, { const: 'fish-2', title: 'Salmon' }] } },
    pet: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'] },
  },
  required: ['name'],
};

describe('formSchema', () => {
  it('turns the spec subset into an rjsf schema that Ajv compiles', () => {
    const form = formSchema(requested);
    if ('error' in form) throw new Error(form.error);
    expect(form.problems).toEqual([]);
    expect(checkInputSchema(form.schema).ok).toBe(true);
    expect(form.schema.required).toEqual(['name']);
  });

  it('makes enum arrays multi-selects (unique items, checkboxes)', () => {
    const form = formSchema(requested);
    if ('error' in form) throw new Error(form.error);
    expect(form.schema.properties?.instruments).toMatchObject({ uniqueItems: true });
    expect(form.schema.properties?.fish).toMatchObject({ uniqueItems: true });
    expect(form.uiSchema.instruments).toEqual({ 'ui:widget': 'checkboxes' });
    expect(form.uiSchema.fish).toEqual({ 'ui:widget': 'checkboxes' });
  });

  it('turns legacy enumNames into titled options', () => {
    const form = formSchema(requested);
    if ('error' in form) throw new Error(form.error);
    expect(form.schema.properties?.pet).toEqual({ type: 'string', oneOf: [{ const: 'pet-1', title: 'Cats' }, { const: 'pet-2', title: 'Dogs' }] });
  });

  it('keeps defaults and validates formats', () => {
    const form = formSchema(requested);
    if ('error' in form) throw new Error(form.error);
    const check = checkInputSchema(form.schema);
    expect(validateArguments(check, { name: 'x', email: 'not an email' })).toEqual([expect.stringContaining('/email')]);
    expect(validateArguments(check, { name: 'x', email: 'a@b.example', integer: 42 })).toEqual([]);
    expect(form.schema.properties?.integer).toMatchObject({ default: 42 });
  });

  it('names what is outside the spec subset but still shows it', () => {
    const form = formSchema({ type: 'object', properties: { nested: { type: 'object' }, list: { type: 'array', items: { type: 'string' } }, bad: 7 } });
    if ('error' in form) throw new Error(form.error);
    expect(form.problems).toEqual([
      expect.stringContaining('"nested" has type "object"'),
      expect.stringContaining('"list" is an array without enum items'),
      expect.stringContaining('"bad" is not an object schema'),
    ]);
  });

  it('refuses a schema that is not an object schema', () => {
    expect(formSchema(undefined)).toEqual({ error: expect.stringContaining('missing') });
    expect(formSchema({ type: 'string' })).toEqual({ error: expect.stringContaining('"string"') });
  });
});

describe('parseElicitation', () => {
  it('reads form mode (the default)', () => {
    const view = parseElicitation({ message: 'Who are you?', requestedSchema: requested });
    expect(view.mode).toBe('form');
    expect(view.message).toBe('Who are you?');
    expect(view.problems).toEqual([]);
  });

  it('reads URL mode with the URL facts', () => {
    const view = parseElicitation({ mode: 'url', message: 'Log in', url: 'https://auth.example.com/x?y=1', elicitationId: 'e1' });
    expect(view).toMatchObject({ mode: 'url', url: 'https://auth.example.com/x?y=1', elicitationId: 'e1', facts: { origin: 'https://auth.example.com', openable: true, warnings: [] } });
  });

  it('reports what is missing', () => {
    expect(parseElicitation({ mode: 'url', message: 'x' }).problems).toEqual([expect.stringContaining('"url"'), expect.stringContaining('"elicitationId"')]);
    expect(parseElicitation({ mode: 'url', message: 'x', url: 'not a url', elicitationId: 'e' }).problems).toEqual(['"url" is not a valid absolute URL']);
    expect(parseElicitation({ mode: 'telepathy', message: 'x' })).toMatchObject({ mode: 'invalid' });
    expect(parseElicitation(null)).toMatchObject({ mode: 'invalid' });
    expect(parseElicitation({ requestedSchema: requested }).problems).toEqual(['"message" is missing or not a string']);
  });

  it('keeps the task metadata of a task-augmented request', () => {
    expect(parseElicitation({ message: 'm', requestedSchema: requested, task: { ttl: 5 } })).toMatchObject({ task: { ttl: 5 } });
  });
});

describe('urlFacts', () => {
  it('warns about what deserves a second look', () => {
    expect(urlFacts('http://example.com/')?.warnings).toEqual(['not https: the page is not encrypted']);
    expect(urlFacts('http://127.0.0.1:9/x')?.warnings).toEqual([]);
    expect(urlFacts('https://user:pw@example.com/')?.warnings).toEqual([expect.stringContaining('user name or password')]);
    expect(urlFacts('https://xn--pple-43d.com/')?.warnings).toEqual([expect.stringContaining('punycode')]);
    expect(urlFacts('javascript:alert(1)')).toMatchObject({ openable: false, scheme: 'javascript' });
    expect(urlFacts('nope')).toBeUndefined();
  });
});

describe('the answer', () => {
  it('keeps only requested, non-empty values', () => {
    const form = formSchema(requested);
    if ('error' in form) throw new Error(form.error);
    expect(elicitContent({ name: 'Ann', email: undefined, extra: 1, integer: 42 }, form.schema)).toEqual({ name: 'Ann', integer: 42 });
  });

  it('sends content only with an accept', () => {
    expect(elicitResult('accept', { a: 1 })).toEqual({ action: 'accept', content: { a: 1 } });
    expect(elicitResult('accept')).toEqual({ action: 'accept' });
    expect(elicitResult('decline', { a: 1 })).toEqual({ action: 'decline' });
    expect(elicitResult('cancel')).toEqual({ action: 'cancel' });
  });
});
