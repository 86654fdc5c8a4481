import { describe, expect, it } from 'vitest';
import { firstProblem } from '../../src/validation/schema-message.js';

// The validator reports every error (`allErrors`): a list of 200,000 bad items is 200,000
// errors to choose the first from. Their ranks were spread into Math.min, which throws a
// RangeError past about 100,000 arguments: the user got a stack overflow instead of the message.

describe('a problem chosen among 200,000 errors', () => {
  it('is worded like the first of a few', () => {
    const schema = { type: 'object', properties: { names: { type: 'array', items: { type: 'string', description: 'a name' } } } };
    const data = { names: Array.from({ length: 200_000 }, (_, i) => i) };
    const problem = firstProblem(schema, data, { holder: 'the file', spelled: (path) => path.at(-1)! });
    expect(problem?.message).toBe('"names" item 1 must be a name, got the number 0');
  });
});
