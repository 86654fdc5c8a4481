/**
 * The refusal of a definition the test expects to be refused.
 *
 * @module
 */
import { expect } from 'vitest';
import { DefinitionError } from '../../src/subagent/index.js';

/** The DefinitionError `parse` throws; fails the test if it throws anything else, or nothing. */
export function definitionRefusal(parse: () => unknown): DefinitionError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error('expected a DefinitionError');
}
