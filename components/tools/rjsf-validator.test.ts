import { describe, expect, it } from 'vitest';
import { checkInputSchema, validateArguments } from '../../lib/schema/tool-schema.ts';
import { validatorFor } from './rjsf-validator.ts';

const draft07 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { message: { type: 'string' } },
  required: ['message'],
  additionalProperties: false,
};

describe('validatorFor', () => {
  it('gives rjsf an Ajv validator that reports missing required fields by property', () => {
    const check = checkInputSchema(draft07);
    if (!check.ok) throw new Error('expected ok');
    const validator = validatorFor(check);
    const result = validator.validateFormData({}, check.schema);
    expect(result.errors[0]).toMatchObject({ name: 'required', property: 'message' });
    expect(validator.isValid(check.schema, { message: 'x' }, check.schema)).toBe(true);
    expect(validateArguments(check, { message: 1 })).toEqual(['/message must be string']);
  });
});

describe('the form and the argument check agree', () => {
  it('on formats and on 2020-12 keywords', () => {
    const check = checkInputSchema({
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, n: { type: 'integer', minimum: 1 }, pair: { type: 'array', prefixItems: [{ type: 'string' }], items: false } },
    });
    if (!check.ok) throw new Error(check.reason);
    const validator = validatorFor(check);
    const values = [{ email: 'not an email' }, { email: 'a@b.example', n: 0 }, { email: 'a@b.example', n: 2 }, { pair: ['a', 'b'] }, { pair: ['a'] }];
    expect(values.map((v) => validateArguments(check, v).length === 0)).toEqual([false, false, true, false, true]);
    for (const value of values) {
      expect(validator.isValid(check.schema as never, value, check.schema as never)).toBe(validateArguments(check, value).length === 0);
    }
  });
});
