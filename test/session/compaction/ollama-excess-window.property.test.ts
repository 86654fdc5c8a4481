/**
 * The window an Ollama refusal teaches ("prompt too long; exceeded max context length by K
 * tokens"): the excess K is read from those words only, and for any refused prompt and any K
 * below it (a property) the window learned, and the prompt a compaction then leaves room for,
 * are never above the refused prompt less K. Before, a tenth less than the refused prompt was
 * learned whatever K said: past a large window, still over it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextExceeded, refusedExcessTokens } from '../../../src/model/context-exceeded.js';
import { answerReserve, windowAfterRefusal } from '../../../src/session/compaction/context-windows.js';

const refusal = (message: string): Error => new Error('model "m": HTTP 400', { cause: new Error(message) });

describe('the excess an Ollama refusal says', () => {
  it.each([
    // A user's report of kimi-k2.6:cloud (Ollama Cloud), its reference left on.
    ['Ollama Cloud', 'prompt too long; exceeded max context length by 65590 tokens (ref: 632ffad5)', 65590],
    ['Ollama, quoted by a client', '400 `prompt too long; exceeded max context length by 100918 tokens`', 100918],
    ['without "max"', 'prompt too long; exceeded context length by 4021 tokens', 4021],
    ['no count', 'prompt too long; exceeded context length', undefined],
    ['another server\'s words', "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.", undefined],
    ['no refusal', 'the budget was exceeded by 5000 tokens', undefined],
  ])('%s', (_what, message, excess) => {
    expect(refusedExcessTokens(refusal(message))).toBe(excess);
    // Still a refusal naming no window: the excess is neither the window nor the prompt.
    if (excess !== undefined) expect(contextExceeded(refusal(message))).toEqual({});
  });
});

describe('the window a refusal saying the excess teaches (property)', () => {
  it('is never above the refused prompt less the excess, nor above a tenth less than it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 10_000_000 }).chain((refused) => fc.tuple(fc.constant(refused), fc.integer({ min: 1, max: refused - 1 }))),
        ([refused, excess]) => {
          const window = windowAfterRefusal(refused, excess);
          expect(window).toBeLessThanOrEqual(refused - excess);
          expect(window).toBeLessThanOrEqual(Math.floor(refused * 0.9));
          // The prompt a compaction leaves room for: the window less the answer's room, the margin below refused - excess.
          expect(window - answerReserve(window, undefined)).toBeLessThanOrEqual(refused - excess - Math.min(4096, Math.floor(window / 5)));
        },
      ),
      { seed: 61 },
    );
  });

  it('the report\'s numbers: a prompt 65,590 over a 262,144 window teaches that window, not 294,960', () => {
    expect(windowAfterRefusal(262_144 + 65_590, 65_590)).toBe(262_144);
    // No excess said: a tenth less, as before.
    expect(windowAfterRefusal(262_144 + 65_590, undefined)).toBe(294_960);
  });
});
