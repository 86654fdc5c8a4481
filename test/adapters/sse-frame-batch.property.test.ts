import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameBatch } from '../../src/adapters/sse-frame-batch.js';

// Several responses share one end-of-turn write: whatever the interleaving of frames, full
// batches, takes (a response ending) and turns, each response must get every frame it was
// given exactly once, in order, and never an empty write.

type Step =
  | { readonly kind: 'add'; readonly batch: number; readonly frame: string }
  | { readonly kind: 'take'; readonly batch: number }
  | { readonly kind: 'turn' };

const BATCHES = 4;
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('add' as const), batch: fc.nat(BATCHES - 1), frame: fc.string({ minLength: 1, maxLength: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('take' as const), batch: fc.nat(BATCHES - 1) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'turn' as const }) },
);

const nextTurn = (): Promise<void> => new Promise((done) => setImmediate(done));

describe('frameBatch, shared by several responses (property)', () => {
  it('hands each response every frame once, in order, in non-empty writes or takes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), fc.integer({ min: 1, max: 12 }), async (steps, maxChars) => {
        const given = Array.from({ length: BATCHES }, () => '');
        const out = Array.from({ length: BATCHES }, () => [] as string[]);
        const batches = out.map((pieces) => frameBatch((text) => void pieces.push(text), maxChars));
        for (const s of steps) {
          if (s.kind === 'turn') await nextTurn();
          else if (s.kind === 'take') {
            const taken = batches[s.batch]!.take();
            if (taken !== '') out[s.batch]!.push(taken);
          } else {
            given[s.batch] += s.frame;
            batches[s.batch]!.add(s.frame);
          }
        }
        await nextTurn();
        for (let b = 0; b < BATCHES; b++) {
          expect(out[b]!.every((piece) => piece !== '')).toBe(true);
          expect(out[b]!.join('')).toBe(given[b]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
