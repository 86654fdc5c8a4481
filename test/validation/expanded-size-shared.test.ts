import { describe, expect, it } from 'vitest';
import { expandedSize } from '../../src/validation/expanded-size.js';

/** A wide object counting how often its keys are listed (each `Object.values` of it lists them once). */
function countedWide(width: number): { readonly value: object; readonly listings: () => number } {
  const target: Record<string, number> = {};
  for (let i = 0; i < width; i++) target[`k${i}`] = 0;
  let listings = 0;
  const value = new Proxy(target, {
    ownKeys(t) {
      listings += 1;
      return Reflect.ownKeys(t);
    },
  });
  return { value, listings: () => listings };
}

// js-yaml keeps `<<` as a plain key: `b: {<<: [*a x 14000]}` is a list of 14,000 references to one wide mapping.
describe('expandedSize of an object reached many times (YAML aliases)', () => {
  it('lists a shared object once, so its work stays about `limit` steps whatever its width', () => {
    const wide = countedWide(2_000);
    const value = { b: { '<<': Array<object>(14_000).fill(wide.value) } };
    expect(expandedSize(value, 10_000)).toBeGreaterThan(10_000);
    expect(wide.listings()).toBe(1);
  });

  it('still counts a shared object each time it is reached, exactly up to the limit', () => {
    const shared = { x: 1, y: [2, 3] };
    // The list, then 3 x (the object, 1, the array, 2, 3).
    expect(expandedSize([shared, shared, shared], 100)).toBe(16);
    expect(expandedSize([shared, shared, shared], 10)).toBeGreaterThan(10);
  });
});
