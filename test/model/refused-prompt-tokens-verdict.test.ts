/**
 * `refusedPromptTokens` reads a refusal's count of the prompt. The compaction's caller has
 * already asked `contextExceeded` whether the error is a refusal, and passes its answer, so
 * the count takes that verdict instead of reading the error's cause chain a second time.
 */
import { describe, expect, it } from 'vitest';
import { contextExceeded, refusedPromptTokens } from '../../src/model/context-exceeded.js';

const refusal = (message: string): Error => new Error('model "m": HTTP 400', { cause: new Error(message) });

describe('refusedPromptTokens with the caller\'s verdict', () => {
  it('reads the count of an error the caller found a refusal', () => {
    const error = refusal('request (9000 tokens) exceeds the available context size (4096 tokens)');
    expect(refusedPromptTokens(error, contextExceeded(error))).toBe(9000);
  });

  it('takes the verdict it is given rather than asking again', () => {
    // Words no pattern of `contextExceeded` knows: only the verdict passed in makes it a refusal.
    const error = refusal('request (9000 tokens) exceeds the budget of this proxy');
    expect(contextExceeded(error)).toBeUndefined();
    expect(refusedPromptTokens(error)).toBeUndefined();
    expect(refusedPromptTokens(error, { window: 4096 })).toBe(9000);
  });
});
