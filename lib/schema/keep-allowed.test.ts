import { describe, expect, it } from 'vitest';
import { keepAllowedArguments } from './keep-allowed.ts';

describe('keepAllowedArguments', () => {
  const schema = { type: 'object', properties: { message: { type: 'string' }, count: { type: 'number' }, mode: { type: 'string', enum: ['a', 'b'] }, prefix: { type: 'string' } }, required: ['message', 'prefix'] };

  it('keeps what is typed where the new schema still allows it, and drops the rest', () => {
    expect(keepAllowedArguments({ message: 'hi', count: 3, mode: 'c', gone: true }, schema)).toEqual({ message: 'hi', count: 3 });
    expect(keepAllowedArguments({ message: 7 }, schema)).toBeUndefined();
    expect(keepAllowedArguments({ count: 2 }, { type: 'object', properties: { count: { type: 'integer' } } })).toEqual({ count: 2 });
    expect(keepAllowedArguments({ count: 2.5 }, { type: 'object', properties: { count: { type: 'integer' } } })).toBeUndefined();
  });

  it('keeps everything for a schema that names no properties and does not close them, nothing for one that does', () => {
    expect(keepAllowedArguments({ any: 1 }, { type: 'object' })).toEqual({ any: 1 });
    expect(keepAllowedArguments({ any: 1 }, { type: 'object', additionalProperties: false })).toBeUndefined();
    expect(keepAllowedArguments('text', schema)).toBeUndefined();
  });
});
